// What watches a training run from outside: the front ends (the programs, the sweep, the Python
// module) hand run_training the observers they want (TrainingRunOptions::observers): a progress
// display, Ctrl-C and SIGTERM, a Python callback. The library's own two are here; the loop calls
// each in the order given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <set>
#include <string>

#include "dlca/io/stop_signals.hpp"
#include "dlca/train/trainer.hpp"

namespace dlca {

// A round of the run as an observer sees it: the epoch shown (the chosen candidate's last, or the
// one a solved stop took back) and where the run stands.
struct TrainingRound {
  EpochStats shown;
  std::string experiment;
  int64_t epochs = 0;  // the epoch the run trains to at most: --epochs, and its rounds
  // The round's place in the run: a halving run counts rounds (its candidate shown may stay at an
  // epoch while others train), a plain run the epochs of the candidate shown.
  int64_t tick = 0;
  bool halving = false;
  bool last = false;           // no round follows (the epochs are done, or a candidate solved)
  std::string which;           // "  start 2/4  budget 37%" for several candidates, else empty
  double elapsed_seconds = 0;  // of this invocation
  double seconds_left = 0;     // estimated: a halving run's budget, a plain run's epochs
};

class TrainingObserver {
 public:
  virtual ~TrainingObserver() = default;
  // After every round with an epoch to show.
  virtual void round_shown(const TrainingRound& /*round*/) {}
  // A candidate that diverged while others go on without it.
  virtual void start_left_behind(size_t /*start*/, const std::string& /*reason*/) {}
  // A write during the run that failed (the log, a checkpoint); training goes on and writes it
  // again later.
  virtual void write_failed(const std::string& /*what*/) {}
  // Asked between rounds and during the repair search: true stops the run after its epoch (the
  // outputs are still written; the summary says "interrupted"). Once asked for, a stop stays.
  virtual bool stop_requested() { return false; }
  // The signal that stopped the run, for its summary (0: none).
  virtual int stop_signal() const { return 0; }
  // After the last round, before the repair and the summary.
  virtual void rounds_ended() {}
};

// An observer made of functions, either of them empty (a program embedding dlca, a test):
// `on_round` after every round (false: stop after it) and `stop`, asked between rounds and during
// the repair (true: stop).
class CallbackObserver : public TrainingObserver {
 public:
  std::function<bool(const TrainingRound&)> on_round;
  std::function<bool()> stop;

  void round_shown(const TrainingRound& round) override {
    if (on_round && !on_round(round)) stopped_ = true;
  }
  bool stop_requested() override { return stopped_ || (stop && stop()); }

 private:
  bool stopped_ = false;
};

// Stops the run after its epoch once Ctrl-C or SIGTERM came, as seen by the handlers installed
// elsewhere for a longer scope (the sweep's, for all its runs: io/stop_signals.hpp).
class SignalSeen : public TrainingObserver {
 public:
  bool stop_requested() override { return StopSignals::stop_requested(); }
  int stop_signal() const override { return StopSignals::signal_number(); }
};

// The same with the handlers installed for the observer's lifetime (a program's one training):
// the run still writes everything after the first signal; a second one ends the process at once.
class SignalStop : public SignalSeen {
 private:
  StopSignals installed_{true};
};

// The progress of a run: one live line on a terminal (standard error), else a plain line every
// `print_every` epochs (and the first and last) on `out`, and the warnings of candidates left
// behind. Quiet: none of that. Either way, each write that failed during the run is a warning
// on standard error, once per message.
class ProgressDisplay : public TrainingObserver {
 public:
  ProgressDisplay(int print_every, std::ostream& out, bool quiet = false);
  void round_shown(const TrainingRound& round) override;
  void start_left_behind(size_t start, const std::string& reason) override;
  void write_failed(const std::string& what) override;
  void rounds_ended() override;

 private:
  int print_every_;
  std::ostream& out_;
  bool quiet_;
  bool live_;
  double last_draw_ = -1;
  std::set<std::string> reported_failures_;
};

// "12.3 s", "4m05s", "2h07m".
std::string format_seconds(double seconds);

}  // namespace dlca
