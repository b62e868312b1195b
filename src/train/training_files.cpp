// The files of a training run (training_files.hpp): the log, checkpoints, the outputs at the end.
#include "train/training_files.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "dlca/core/option_names.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/output_paths.hpp"
#include "dlca/io/svg_plots.hpp"
#include "dlca/train/training_pictures.hpp"

namespace dlca {

namespace {

// The loss curves go beside the log, unless the log is a device or pipe (/dev/null, a FIFO):
// then there is no "beside" to write to.
std::string log_svg_path(const std::string& log_path) {
  return log_path.empty() || is_written_in_place(log_path) ? "" : svg_beside(log_path);
}

// The loss curves' title is the experiment's name and this; the check below looks for it.
constexpr char kLossCurvesTitleEnd[] = ": loss per epoch";

// The curves take a name the user did not give: a file already there that is not an earlier
// run's curves (their title ends in kLossCurvesTitleEnd) is the user's, and is not replaced.
void check_log_svg_replaceable(const std::string& log_path) {
  const std::string svg = log_svg_path(log_path);
  std::error_code ec;
  if (svg.empty() || !std::filesystem::is_regular_file(svg, ec)) return;
  std::ifstream in(svg, std::ios::binary);
  std::string head(size_t(1) << 16, '\0');
  in.read(head.data(), std::streamsize(head.size()));
  head.resize(size_t(in.gcount()));
  if (head.find(std::string(kLossCurvesTitleEnd) + "</text>") == std::string::npos)
    throw FileError(
        fmt::format("{}: its loss curves would replace {}, which is not an "
                    "earlier run's curves (move it, or give {} another name)",
                    option_with_value("log", log_path), svg, option_name("log")));
}

// Whether the file at `path` holds `text` (a --save written before another output failed).
bool file_holds(const std::string& path, const std::string& text) {
  try {
    return read_file(path, text.size() + 1) == text;
  } catch (const FileError&) {
    return false;
  }
}

// A --save that could not be written at the end of a training: the model goes to the temporary
// folder ($TMPDIR, and /tmp when that fails) under a new name instead, so that the training is not
// lost. Returns what to add to the error: where the model went, or that it could not be kept.
std::string rescue_model(const std::string& text) {
  std::vector<std::filesystem::path> folders;
  std::error_code no_temp;
  const std::filesystem::path temp = std::filesystem::temp_directory_path(no_temp);
  if (!no_temp) folders.push_back(temp);
  if (no_temp || temp != "/tmp") folders.emplace_back("/tmp");
  for (const std::filesystem::path& dir : folders)
    for (int n = 0; n < 100; ++n) {
      const std::string path = (dir / fmt::format("dlca-model-{}-{}.json", ::getpid(), n)).string();
      std::error_code error;
      if (std::filesystem::symlink_status(path, error).type() !=
          std::filesystem::file_type::not_found)
        continue;  // never replaces a file
      try {
        write_file_atomically(path, text);
      } catch (const FileError&) {
        break;  // this folder takes no file: the next one
      }
      return "; the trained model was written to " + path + " instead";
    }
  return "; the trained model could not be kept in $TMPDIR or /tmp either";
}

// The CSV log and, unless the log is a device or pipe, its loss curves beside it.
void add_log_outputs(OutputGroup& outputs, const TrainingLoop& loop, const std::string& log_path) {
  const std::vector<EpochStats> measured = loop.measured();
  std::string text = "epoch,soft_loss,hard_loss,active_gates,ms\n";
  for (const EpochStats& e : measured)
    text += fmt::format("{},{:.9g},{:.9g},{},{:.3f}\n", e.epoch, e.soft_loss, e.hard_loss,
                        e.active_gates, e.milliseconds);
  outputs.add(log_path, text);
  if (const std::string svg = log_svg_path(log_path); !svg.empty())
    outputs.add(svg, loss_curves_svg(measured, loop.experiment() + kLossCurvesTitleEnd));
}

}  // namespace

std::vector<NamedPath> training_output_paths(const TrainingRunOptions& options) {
  return {{option_name("log"), options.log_path},
          {option_name("log") + " (its SVG)", log_svg_path(options.log_path)},
          {option_name("summary"), options.summary_path},
          {option_name("save"), options.save_path},
          {option_name("gif"), options.gif_path},
          {option_name("histogram"), options.histogram_path}};
}

RunFiles::RunFiles(const TrainingRunOptions& options, const ExperimentConfig& run_config)
    : options_(options) {
  check_output_paths({}, training_output_paths(options));
  check_log_svg_replaceable(options.log_path);
  if (!options.gif_path.empty()) check_rollout_gif(run_config);
}

void RunFiles::write_log(const TrainingLoop& loop) const {
  OutputGroup outputs;
  add_log_outputs(outputs, loop, options_.log_path);
  outputs.commit();
}

std::string RunFiles::keep_log(const TrainingLoop& loop, const std::string& reason) const {
  if (options_.log_path.empty()) return reason;
  try {
    write_log(loop);
  } catch (const FileError&) {  // the divergence is the news; a log that failed too is not
    return reason;
  }
  return fmt::format("{}; {} has the epochs before it", reason,
                     option_with_value("log", options_.log_path));
}

void RunFiles::during_run(const TrainingLoop& loop) {
  // A write during the run that fails does not end the training; the writes at the end must work.
  const auto write = [&](const auto& what) {
    try {
      what();
    } catch (const FileError& e) {
      for (TrainingObserver* observer : options_.observers) observer->write_failed(e.what());
    }
  };
  const double now = loop.elapsed();
  if (!options_.log_path.empty() && now - last_log_write_ > 5.0) {
    write([&] { write_log(loop); });  // keep the log current on long runs
    last_log_write_ = now;
  }
  const int64_t tick = loop.pool().halving() ? loop.tick() : loop.chosen().epoch();
  if (!options_.save_path.empty() && options_.checkpoint_every > 0 &&
      tick % options_.checkpoint_every == 0 && !loop.last_round())
    write([&] { write_file_atomically(options_.save_path, loop.checkpoint_text()); });
}

void RunFiles::write_at_end(const TrainingLoop& loop, const TrainingSummary& summary) const {
  // Every output is written to its temporary first and the files are replaced only once all are
  // written, so a run that fails on one (a full disk, /dev/full) replaces none of the others.
  const std::string saved_text =
      options_.save_path.empty() ? std::string() : loop.checkpoint_text();
  try {
    OutputGroup outputs;
    if (!options_.log_path.empty()) add_log_outputs(outputs, loop, options_.log_path);
    if (!options_.histogram_path.empty())
      outputs.add(options_.histogram_path,
                  gate_histogram_svg(
                      summary.perception_op_counts, summary.update_op_counts,
                      fmt::format("{}: hard gates by op (A and B left out)", summary.experiment)));
    if (!options_.gif_path.empty())
      outputs.add(
          rollout_gif_uncommitted(loop.chosen().model(), loop.chosen().task(), options_.gif_path));
    if (!options_.save_path.empty()) outputs.add(options_.save_path, saved_text);
    if (!options_.summary_path.empty())
      outputs.add(options_.summary_path, summary.to_json().dump(2) + "\n");
    outputs.commit();
  } catch (const FileError& e) {
    if (!options_.rescue_unsaved_model || options_.save_path.empty() ||
        file_holds(options_.save_path, saved_text))
      throw;
    throw FileError(e.what() + rescue_model(saved_text));
  }
}

}  // namespace dlca
