// The library's own observers of a training run (training_observer.hpp): the progress display.
#include "dlca/train/training_observer.hpp"

#include <cstdio>
#include <ostream>

#include <fmt/format.h>
#include <unistd.h>

namespace dlca {

std::string format_seconds(double s) {
  if (s < 60) return fmt::format("{:.1f} s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", int(s) / 60, int(s) % 60);
  return fmt::format("{}h{:02}m", int(s) / 3600, (int(s) / 60) % 60);
}

ProgressDisplay::ProgressDisplay(int print_every, std::ostream& out, bool quiet)
    : print_every_(print_every),
      out_(out),
      quiet_(quiet),
      live_(!quiet && ::isatty(STDERR_FILENO)) {}

void ProgressDisplay::round_shown(const TrainingRound& round) {
  // The epoch shown is named by its index, from 0, as everywhere; the fraction after it counts the
  // epochs run to it ("epoch 244 (245/500)"), so the last line reads N/N (a solved stop takes the
  // update of the epoch that solved back, but that epoch ran).
  const EpochStats& stats = round.shown;
  const int64_t done = stats.epoch + 1;
  if (live_ && (round.elapsed_seconds - last_draw_ > 0.1 || round.last)) {
    last_draw_ = round.elapsed_seconds;
    std::fprintf(
        stderr, "\r\033[K%s  epoch %lld (%lld/%lld)  soft %.4f  hard %.0f%s  %.1f ms/epoch  ETA %s",
        round.experiment.c_str(), (long long)stats.epoch, (long long)done, (long long)round.epochs,
        stats.soft_loss, stats.hard_loss, round.which.c_str(), stats.milliseconds,
        format_seconds(round.seconds_left).c_str());
    std::fflush(stderr);
  } else if (!live_ && !quiet_ && print_every_ > 0 &&
             (round.tick == 1 ||
              (round.halving ? round.tick - 1 : stats.epoch) % print_every_ == 0 || round.last)) {
    out_ << fmt::format(
                "epoch {:>6} ({}/{})  soft {:10.4f}  hard {:5.0f}  active {:5}{}  {:7.2f} ms\n",
                stats.epoch, done, round.epochs, stats.soft_loss, stats.hard_loss,
                stats.active_gates, round.which, stats.milliseconds)
         << std::flush;
  }
}

void ProgressDisplay::start_left_behind(size_t start, const std::string& reason) {
  if (!quiet_)
    std::fprintf(stderr, "%swarning: start %zu: %s; the other starts go on without it\n",
                 live_ ? "\r\033[K" : "", start, reason.c_str());
}

void ProgressDisplay::write_failed(const std::string& what) {
  if (reported_failures_.insert(what).second)
    std::fprintf(stderr, "%swarning: %s; training goes on and writes it again later\n",
                 live_ ? "\r\033[K" : "", what.c_str());
}

void ProgressDisplay::rounds_ended() {
  if (live_) std::fprintf(stderr, "\n");
}

}  // namespace dlca
