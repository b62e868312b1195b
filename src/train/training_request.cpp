// Checking a training request and preparing its candidates (training_request.hpp), the same for
// every front end.
#include "dlca/train/training_request.hpp"

#include <optional>

#include <fmt/format.h>

#include "dlca/core/memory_budget.hpp"
#include "dlca/core/option_names.hpp"
#include "dlca/io/image_target.hpp"

namespace dlca {

namespace {

// A checkpoint period that falls on no epoch before the last (which writes --save anyway) changes
// nothing: refused like other options that change nothing.
// The epoch a resumed run continues from, for its checkpoint period and whether it has anything
// left to train: a halving run's progress is its rounds and budget, not the epoch of the candidate
// its file was saved with (none for a halving run or a new one).
std::optional<int64_t> resumed_epoch(const ModelFile* resumed) {
  if (!resumed || (resumed->multi_start && resumed->multi_start->halving)) return std::nullopt;
  return resumed->training->epoch;
}

void check_checkpoint_period(const TrainingRequest& request, const ModelFile* resumed) {
  const int64_t every = request.run.checkpoint_every;
  const int64_t from = resumed_epoch(resumed).value_or(0);
  const int64_t epochs = last_epoch(request.config);
  if (!checkpoints_before_end(every, from, epochs))
    throw RunOptionError(fmt::format(
        "{}: has no effect with {}{} (no checkpoint falls before the last epoch, which writes {} "
        "anyway)",
        option_with_value("checkpoint_every", std::to_string(every)),
        request.config.rounds > 0
            ? fmt::format("{} and {} ({} epochs in all)",
                          option_with_value("epochs", std::to_string(request.config.epochs)),
                          option_with_value("rounds", std::to_string(request.config.rounds)),
                          epochs)
            : option_with_value("epochs", std::to_string(epochs)),
        from > 0 ? fmt::format(" from epoch {}", from) : "", option_name("save")));
}

}  // namespace

PreparedTraining start_training(TrainingRequest& request) {
  TrainingRunOptions& run = request.run;
  if (run.checkpoint_every > 0 && run.save_path.empty() && !request.save_named_later)
    throw RunOptionError(fmt::format("{}: needs {} to write to", option_name("checkpoint_every"),
                                     option_name("save")));
  std::vector<NamedPath> inputs = request.inputs;
  inputs.push_back({option_name("resume"), request.resume_path});
  check_output_paths(inputs, training_output_paths(run),
                     {{option_name("resume"), option_name("save")}});
  for (const NamedPath& input : request.inputs)  // a target PNG is decoded at its own size first
    if (!input.path.empty())
      check_memory(png_decode_bytes(input.path),
                   fmt::format("decoding {} {}", input.option, input.path), request.memory_limit);
  std::optional<ModelFile> resumed;
  if (!request.resume_path.empty()) {
    try {
      resumed = load_checkpoint(request.resume_path);
    } catch (const FileError& e) {  // "cb.json: cannot open (...)" as "--resume cb.json: ..."
      const std::string message = e.what();
      const std::string& path = request.resume_path;
      throw FileError(message.starts_with(path + ":")
                          ? option_with_value("resume", path) + message.substr(path.size())
                          : option_name("resume") + " " + message);
    }
  }
  ModelFile* const checkpoint = resumed ? &*resumed : nullptr;
  request.config = resolve_recipe(request.config, request.task_of, checkpoint);
  run.epochs = last_epoch(request.config);  // (with robust's rounds, once resolved)
  check_checkpoint_period(request, checkpoint);
  PreparedTraining prepared =
      prepare_training(request.config, request.task_of, request.backend, checkpoint,
                       request.resume_path, request.memory_limit);
  prepared.nothing_to_train = resumed_epoch(checkpoint) == run.epochs;
  run.threads = request.backend.cpu.threads;
  if (!prepared.vulkan && request.backend.cpu.tile_cells > 0)
    run.tile_cells = request.backend.cpu.tile_cells;
  return prepared;
}

}  // namespace dlca
