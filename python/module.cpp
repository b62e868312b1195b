// The compiled part of the Python module `dlca` (dlca._dlca): experiments, training with a
// per-epoch callback (the GIL released between callbacks), model files, a model's parameters as
// numpy arrays, its hard circuit run on a numpy grid, and exports. python/dlca/__init__.py wraps it
// in the documented API (keyword options, dicts, progress lines).
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "dlca/circuits/circuit.hpp"
#include "dlca/circuits/circuit_export.hpp"
#include "dlca/circuits/circuit_kernel.hpp"
#include "dlca/circuits/digitaljs.hpp"
#include "dlca/circuits/simulation_grid.hpp"
#include "dlca/core/config_json.hpp"
#include "dlca/core/json_text.hpp"
#include "dlca/core/memory_budget.hpp"
#include "dlca/core/option_names.hpp"
#include "dlca/core/random.hpp"
#include "dlca/core/training_settings.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/cell_pictures.hpp"
#include "dlca/io/data_dir.hpp"
#include "dlca/io/image_target.hpp"
#include "dlca/io/output_paths.hpp"
#include "dlca/train/experiment_file.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/picture_experiment.hpp"
#include "dlca/train/trainer.hpp"
#include "dlca/train/training_observer.hpp"
#include "dlca/train/training_pictures.hpp"
#include "dlca/train/training_request.hpp"
#include "dlca/train/training_run.hpp"
#include "dlca/train/training_setup.hpp"
#include "dlca/web/html_page.hpp"

namespace py = pybind11;
using namespace dlca;

namespace {

// A model with what training or its file gave: the training state (so that save() writes a
// resumable checkpoint), the epochs measured and the run's summary.
struct PyModel {
  Model model;
  std::optional<TrainingState> training;
  std::optional<MultiStartRecord> multi_start;
  std::vector<EpochStats> history;
  nlohmann::json summary;  // empty unless trained in this process
  std::string source;      // the file it was loaded from (empty unless loaded)
};

// Run options of a training: what is not part of the experiment's configuration.
struct RunOptions {
  int threads = 0;
  std::string backend = "cpu";
  int device = -1;
  std::string log, save, summary, gif, histogram, resume, max_memory;
  int64_t checkpoint_every = 0;
  bool keep_activations = false;
  int tile_cells = 0;
};

// A model's arrays are fresh copies: read-only, so that `model.logits[0, 0] = 9` fails instead of
// changing a copy nobody sees.
template <class T>
py::array_t<T> read_only(py::array_t<T> a) {
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

py::dict history_arrays(const std::vector<EpochStats>& history) {
  const size_t n = history.size();
  py::array_t<int64_t> epoch(n);
  py::array_t<double> soft(n), hard(n), ms(n);
  py::array_t<int32_t> active(n);
  for (size_t i = 0; i < n; ++i) {
    epoch.mutable_at(i) = history[i].epoch;
    soft.mutable_at(i) = history[i].soft_loss;
    hard.mutable_at(i) = history[i].hard_loss;
    active.mutable_at(i) = history[i].active_gates;
    ms.mutable_at(i) = history[i].milliseconds;
  }
  py::dict d;
  d["epoch"] = read_only(epoch);
  d["soft_loss"] = read_only(soft);
  d["hard_loss"] = read_only(hard);
  d["active_gates"] = read_only(active);
  d["ms"] = read_only(ms);
  return d;
}

py::object json_to_python(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

PyModel train(const ExperimentFile& experiment, const RunOptions& o, py::object callback) {
  BackendChoice choice;
  choice.kind = o.backend;
  choice.device = o.device;
  choice.cpu.threads = o.threads;
  choice.cpu.tile_cells = o.tile_cells;
  choice.cpu.checkpointing = !o.keep_activations;
  // The run as the library takes it from every front end (training_request.hpp): checked, and
  // its candidates prepared, by start_training below.
  TrainingRequest request;
  request.config = experiment.config;
  request.task_of = [&](const ExperimentConfig& c) { return make_task(experiment, c); };
  request.backend = choice;
  request.resume_path = o.resume;
  request.memory_limit = o.max_memory.empty() ? 0 : parse_memory_size(o.max_memory);
  if (!experiment.path.empty()) request.inputs.push_back({"the experiment", experiment.path});
  if (!experiment.task.image.empty())
    request.inputs.push_back({"the experiment's image", experiment.task.image});
  TrainingRunOptions& run = request.run;
  run.log_path = o.log;
  run.gif_path = o.gif;
  run.histogram_path = o.histogram;
  run.summary_path = o.summary;
  run.save_path = o.save;
  run.checkpoint_every = o.checkpoint_every;

  std::optional<py::error_already_set> raised;  // by the callback, or a KeyboardInterrupt
  bool interrupted_by_signal = false;
  // Ctrl-C (or another signal's exception) since last asked: kept in `raised`. Needs the GIL.
  const auto signalled = [&] {
    if (PyErr_CheckSignals() == 0) return false;
    interrupted_by_signal = PyErr_ExceptionMatches(PyExc_KeyboardInterrupt);
    raised.emplace();
    return true;
  };
  // What watches the run: Python's own Ctrl-C handler, asked after every epoch and during the
  // repair search after the last one, and the callback (set below); warnings of writes that fail
  // during the run (the log, a checkpoint) go to standard error.
  CallbackObserver observer;
  ProgressDisplay warnings(0, std::cerr, /*quiet=*/true);
  run.observers = {&observer, &warnings};
  observer.stop = [&] {
    py::gil_scoped_acquire gil;
    return raised.has_value() || signalled();
  };
  observer.on_round = [&](const TrainingRound& round) {
    const EpochStats& e = round.shown;
    py::gil_scoped_acquire gil;
    if (signalled()) return false;
    if (callback.is_none()) return true;
    try {
      // (and the epoch the run trains to at most: its --epochs and rounds, once resolved)
      const py::object go =
          callback(e.epoch, e.soft_loss, e.hard_loss, e.active_gates, round.epochs);
      if (go.is_none()) return true;
      const int truth = PyObject_IsTrue(go.ptr());  // Python's own truthiness, errors kept
      if (truth < 0) throw py::error_already_set();
      return truth == 1;
    } catch (py::error_already_set& error) {
      interrupted_by_signal = error.matches(PyExc_KeyboardInterrupt);  // Ctrl-C while it ran
      raised.emplace(std::move(error));
      return false;
    }
  };

  PyModel result;
  std::optional<std::string> unwritten;  // an output that failed once the training had run
  {
    py::gil_scoped_release release;
    PreparedTraining prepared = start_training(request);
    const ExperimentConfig& config = request.config;
    std::ostringstream out;
    const auto keep = [&](const Trainer& chosen) {
      result.model = chosen.model();
      result.training = training_state_of(chosen);
      if (run.tile_cells) result.training->tile_cells = run.tile_cells;  // as start_training set it
      result.history = measured_epochs(chosen);
    };
    const auto first_held = [&]() -> const Trainer* {
      for (const auto& c : prepared.candidates)
        if (c.trainer) return c.trainer.get();
      return nullptr;
    };
    const int64_t epochs_before = first_held()->epoch();
    const size_t starts_before = prepared.candidates.size();
    try {
      const TrainingSummary summary = run_training(prepared, run, out);
      keep(*prepared.candidates[size_t(summary.chosen_start)].trainer);
      if (!summary.candidates.is_null()) {  // what save= writes, so that the model saved later
                                            // resumes
        const bool repaired = summary.repair.is_object() && summary.repair.value("applied", false);
        result.multi_start =
            multi_start_record(prepared.trainers(), config.seed, size_t(summary.chosen_start),
                               summary.stopped_when_solved || repaired, run.tile_cells,
                               summary.halving ? &*summary.halving : nullptr);
      }
      result.summary = summary.to_json();
      result.summary["report"] = out.str();
      if (!prepared.note.empty()) result.summary["backend_note"] = prepared.note;
    } catch (const FileError& e) {
      // A log, save or summary that cannot be written (a full disk, a folder removed meanwhile):
      // the training is not lost with it. The candidate kept is the leading one.
      const Trainer* first = first_held();
      if (prepared.candidates.size() == starts_before && first && first->epoch() == epochs_before)
        throw;
      std::vector<EpochStats> last;
      std::vector<const Trainer*> kept;
      for (const auto& candidate : prepared.candidates)
        if (candidate.trainer && !candidate.trainer->history().empty()) {
          kept.push_back(candidate.trainer.get());
          last.push_back(measured_epochs(*candidate.trainer).back());
        }
      keep(*kept.at(leading_candidate(last)));
      unwritten = e.what();
    }
  }
  if (raised && !interrupted_by_signal) throw std::move(*raised);
  if (unwritten) {  // the model travels with the exception, as with Ctrl-C below
    py::object error = py::module_::import("dlca").attr("FileError")(
        *unwritten + " (the trained model is this exception's .model)");
    error.attr("model") = py::cast(std::move(result));
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
    throw py::error_already_set();
  }
  if (raised) {  // Ctrl-C: the model so far travels with the exception
    py::object error = py::module_::import("dlca").attr("TrainingInterrupted")(
        "training interrupted (Ctrl-C) after epoch " +
        std::to_string(result.history.empty() ? 0 : result.history.back().epoch));
    error.attr("model") = py::cast(std::move(result));
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
    throw py::error_already_set();
  }
  return result;
}

PyModel load(const std::string& path) {
  ModelFile file = load_model_file(path);
  PyModel m;
  m.model = std::move(file.model);
  m.training = std::move(file.training);
  m.multi_start = std::move(file.multi_start);
  if (m.training) {  // every epoch measured, as a training in this process reports them
    m.history = m.training->history;
    if (m.training->measured) m.history.push_back(*m.training->measured);
  }
  m.source = std::filesystem::absolute(path).string();  // still right after os.chdir
  return m;
}

void save(const PyModel& m, const std::string& path) {
  if (path.empty()) throw std::invalid_argument("path: an empty path names no file");
  save_model_file(path, m.model, m.training ? &*m.training : nullptr,
                  m.multi_start ? &*m.multi_start : nullptr);
}

// A [gates][per_gate] float32 array.
py::array_t<float> per_gate(const std::vector<float>& values, int per_gate = kNumOps) {
  const size_t gates = values.size() / size_t(per_gate);
  py::array_t<float> a({gates, size_t(per_gate)});
  std::copy(values.begin(), values.end(), a.mutable_data());
  return read_only(a);
}

py::list wiring_layers(const std::vector<LayerWiring>& layers) {
  py::list list;
  for (const LayerWiring& w : layers) {
    py::array_t<uint32_t> pairs({w.size(), size_t(2)});
    for (size_t i = 0; i < w.size(); ++i) {
      pairs.mutable_at(i, 0) = w.a[i];
      pairs.mutable_at(i, 1) = w.b[i];
    }
    list.append(read_only(pairs));
  }
  return list;
}

// Planes [k][H][W] as the numpy layout [H][W][k].
py::array_t<uint8_t> cells_from_planes(const std::vector<uint8_t>& planes, int height, int width,
                                       int k) {
  py::array_t<uint8_t> out({size_t(height), size_t(width), size_t(k)});
  uint8_t* o = out.mutable_data();
  const size_t plane = size_t(height) * width;
  for (int c = 0; c < k; ++c)
    for (size_t i = 0; i < plane; ++i) o[i * k + c] = planes[c * plane + i];
  return out;
}

// The hard circuit on a grid: start is uint8 [H][W][k] (k <= the model's channels; non-zero = 1),
// the result [H][W][C]. Asynchronous steps draw as `dlca_run --async --seed` does.
// The training GIF of the hard circuit from `start`, uint8 [H][W][C] of the model's grid (the
// Python wrapper fills it): 2 x steps, 0.1 s a step, the trained step held a second.
void write_gif(const PyModel& m, const std::string& path,
               const py::array_t<uint8_t, py::array::c_style | py::array::forcecast>& start) {
  const ExperimentConfig& c = m.model.config;
  if (start.ndim() != 3 || start.shape(0) != c.height || start.shape(1) != c.width ||
      start.shape(2) != c.channels)
    throw std::invalid_argument(fmt::format("start: must be the model's grid, {} x {} x {}",
                                            c.height, c.width, c.channels));
  check_rollout_gif(c);
  const auto cells = start.unchecked<3>();
  std::vector<float> state(size_t(c.channels) * size_t(c.height) * size_t(c.width));
  for (int ch = 0; ch < c.channels; ++ch)
    for (int y = 0; y < c.height; ++y)
      for (int x = 0; x < c.width; ++x)
        state[(size_t(ch) * c.height + y) * c.width + x] = cells(y, x, ch) != 0 ? 1.0f : 0.0f;
  write_rollout_gif(m.model, state.data(), path);
}

py::array_t<uint8_t> run_grid(const PyModel& m, py::array start, int steps, bool async,
                              std::optional<double> fire_rate_given,
                              std::optional<uint64_t> seed_given, std::optional<bool> periodic) {
  if (steps < 0) throw std::invalid_argument("steps: must be >= 0, got " + std::to_string(steps));
  if (!async && fire_rate_given)
    throw std::invalid_argument("fire_rate: has no effect without async_=True");
  if (!async && seed_given)
    throw std::invalid_argument(
        "seed: has no effect without async_=True (synchronous steps draw "
        "nothing)");
  const double fire_rate = fire_rate_given.value_or(0.6);
  const uint64_t seed = seed_given.value_or(0);
  if (!(fire_rate > 0 && fire_rate <= 1))
    throw std::invalid_argument(fmt::format("fire_rate: must be in (0, 1], got {}", fire_rate));
  const int channels = m.model.config.channels;
  if (start.ndim() == 2)
    start = start.attr("reshape")(start.shape(0), start.shape(1), 1).cast<py::array>();
  if (start.ndim() != 3)
    throw std::invalid_argument("start: must be an array H x W x C, got " +
                                std::to_string(start.ndim()) + " dimensions");
  const auto cells = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>::ensure(start);
  if (!cells) throw std::invalid_argument("start: must be an array of 0/1 cells");
  for (int axis = 0; axis < 2; ++axis)
    if (cells.shape(axis) > 65536)
      throw std::invalid_argument("start: at most 65536 cells a side, got " +
                                  std::to_string(cells.shape(axis)));
  const int height = int(cells.shape(0)), width = int(cells.shape(1)), k = int(cells.shape(2));
  if (height < 1 || width < 1 || k < 1 || k > channels)
    throw std::invalid_argument(
        "start: must be H x W x C with H, W >= 1 and 1 <= C <= " + std::to_string(channels) +
        " (the model's channels), got " + std::to_string(height) + " x " + std::to_string(width) +
        " x " + std::to_string(k));
  // The grid's bit planes (two copies) and the planes and array of bytes returned.
  const uint64_t grid_cells = uint64_t(height) * uint64_t(width);
  const uint64_t plane_bytes = uint64_t(height) * ((uint64_t(width) + 63) / 64) * 8;
  check_memory(2 * uint64_t(channels) * (plane_bytes + grid_cells),
               fmt::format("a {}x{} grid of {} channels", width, height, channels), 0,
               false);  // no --max-memory here
  const Circuit circuit = prune(m.model);
  std::vector<uint8_t> final_planes;
  bool out_of_memory = false;
  try {
    py::gil_scoped_release release;
    auto grid = make_cpu_grid(circuit, interpreted_kernel(circuit), height, width,
                              periodic.value_or(m.model.config.periodic));
    const uint8_t* data = cells.data();
    grid->set_state_rows(k, [&](int c, int y, uint8_t* row) {
      for (int x = 0; x < width; ++x) row[x] = data[(size_t(y) * width + x) * k + c] != 0;
    });
    for (int s = 0; s < steps; ++s) {
      if (s % 64 == 63) {  // Ctrl-C: KeyboardInterrupt within a few steps
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      }
      if (async)
        grid->step_async(fire_rate, async_step_key(seed, s));
      else
        grid->step();
    }
    final_planes = grid->planes();
  } catch (const std::bad_alloc&) {
    out_of_memory = true;  // raised below, with the GIL held again
  }
  if (out_of_memory) {
    PyErr_SetString(PyExc_MemoryError,
                    fmt::format("start: out of memory for a {}x{} grid of {} channels (try a "
                                "smaller grid)",
                                width, height, channels)
                        .c_str());
    throw py::error_already_set();
  }
  return cells_from_planes(final_planes, height, width, channels);
}

// A PNG read as cells [H][W][k], as dlca_run --init reads it.
py::array_t<uint8_t> read_cells(const std::string& path, int height, int width,
                                const std::string& colours, float threshold) {
  const PictureColours picture = parse_picture_colours(colours);
  // As dlca run estimates it: the PNG decoded at its own size, its resized copies (floats), and
  // the planes and the array of bytes returned.
  const uint64_t cells = uint64_t(height) * uint64_t(width);
  check_memory(png_decode_bytes(path) + 2 * 12 * cells + 2 * cells * picture_planes(picture),
               fmt::format("reading {} as {}x{} cells", path, width, height), 0, false);
  const std::vector<uint8_t> planes = read_cell_planes(path, height, width, picture, threshold);
  return cells_from_planes(planes, height, width, picture_planes(picture));
}

std::string export_text(const PyModel& m, const std::string& format, const std::string& name) {
  if ((format == "digitaljs" || format == "html") && !name.empty())  // as dlca export refuses it
    throw std::invalid_argument("name: names the C function or Verilog module; the " + format +
                                " export has none");
  const Circuit circuit = prune(m.model);
  if (format == "digitaljs") return circuit_to_digitaljs(circuit);
  if (format == "html") return circuit_page_html(model_page_content(m.model, m.model.config.name));
  const std::string id = name.empty() ? identifier_from(m.model.config.name) : name;
  if (format == "c") {
    if (const std::string problem = c_name_problem(id); !problem.empty())
      throw std::invalid_argument("name: " + problem);
    return circuit_to_c(circuit, id);
  }
  if (format == "verilog") {
    if (const std::string problem = verilog_name_problem(id); !problem.empty())
      throw std::invalid_argument("name: " + problem);
    return circuit_to_verilog(circuit, id);
  }
  throw std::invalid_argument("format: must be c, verilog, digitaljs or html, got '" + format +
                              "'");
}

// JSON text handed in from Python, or a ConfigError naming the argument (not nlohmann's message).
nlohmann::json json_argument(const std::string& text, const std::string& name) {
  try {
    return parse_json_text(text);
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(name + ": not valid JSON (" + plain_error_text(e) + ")");
  } catch (const JsonTextError& e) {  // nested too deeply, a key given twice
    throw ConfigError(name + ": " + e.what());
  }
}

}  // namespace

PYBIND11_MODULE(_dlca, m) {
  m.doc() = "dlca's compiled core; use the package dlca.";
  set_option_wording(OptionWording::kKeywords);  // errors name keywords, not the programs' options
  py::register_exception<FileError>(m, "FileError", PyExc_OSError);
  py::register_exception<TrainingDiverged>(m, "TrainingDiverged", PyExc_RuntimeError);
  static py::exception<ConfigError> config_error(m, "ConfigError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised) std::rethrow_exception(raised);
    } catch (const ConfigError& e) {
      config_error(e.what());
    } catch (const ResumeMismatch& e) {  // bad usage, as the programs' exit status 2 says
      config_error(e.what());
    }
  });

  py::class_<ExperimentFile>(m, "Experiment")
      .def_property_readonly("path", [](const ExperimentFile& e) { return e.path; })
      .def_property_readonly("task_kind", [](const ExperimentFile& e) { return e.task.kind; })
      .def("config_json",
           [](const ExperimentFile& e) {  // what the file gave, for keywords to change
             nlohmann::json json = config_to_json(e.config);
             drop_recipe_filled_keys(json, e.config.given);
             return json.dump();
           })
      .def("with_config",
           [](const ExperimentFile& e, const std::string& text) {
             ExperimentFile copy = e;
             copy.config = config_from_json(json_argument(text, "config"));
             return copy;
           })
      .def("with_settings", [](const ExperimentFile& e, const std::string& text) {
        // Keywords given to train() on top of what the file gave, as every front end applies them.
        nlohmann::json json = config_to_json(e.config);
        drop_recipe_filled_keys(json, e.config.given);
        apply_settings(json, json_argument(text, "settings"));
        ExperimentFile copy = e;
        copy.config = config_from_json(json);
        return copy;
      });
  m.def("settings", [] {  // training_settings(): key, command-line option, what it does
    std::vector<std::tuple<std::string, std::string, std::string>> rows;
    for (const Setting& s : training_settings())
      rows.emplace_back(s.key, s.option ? s.option : "", s.help);
    return rows;
  });
  m.def("config_keys", [] {
    std::vector<std::string> keys;
    for (const char* key : config_keys()) keys.emplace_back(key);
    return keys;
  });
  m.def("load_experiment", py::overload_cast<const std::string&>(&load_experiment),
        py::arg("name_or_path"));
  m.def(
      "experiment_from_json",
      [](const std::string& text, const std::string& dir) {
        return experiment_from_json(json_argument(text, "experiment"), dir, "experiment");
      },
      py::arg("text"), py::arg("dir"));
  m.def(
      "picture_experiment",
      [](const std::string& path, std::optional<int> size, std::optional<std::string> colours,
         std::optional<float> threshold, std::optional<int> channels,
         std::optional<std::string> seed_cell, std::optional<std::string> boundary) {
        PictureRequest request;
        request.path = path;
        request.size = size;
        if (colours) try {
            request.colours = parse_picture_colours(*colours);
          } catch (const std::invalid_argument& e) {  // named as the keyword
            throw py::value_error(std::string("colours: ") + e.what());
          }
        // The words of dlca train image's --seed-cell and --boundary.
        const auto one_of = [](const char* key, const std::optional<std::string>& value,
                               const char* yes, const char* no) -> std::optional<bool> {
          if (!value) return std::nullopt;
          if (*value != yes && *value != no)
            throw py::value_error(
                fmt::format("{}: must be '{}' or '{}', got '{}'", key, yes, no, *value));
          return *value == yes;
        };
        request.seed_cell = one_of("seed_cell", seed_cell, "center", "none");
        request.periodic = one_of("boundary", boundary, "periodic", "zero");
        request.threshold = threshold;
        request.channels = channels;
        PictureExperiment chosen = picture_experiment(request);
        return py::make_tuple(chosen.experiment,
                              picture_description(chosen, chosen.experiment.config,
                                                  chosen.experiment.task.seed_cell));
      },
      py::arg("path"), py::arg("size"), py::arg("colours"), py::arg("threshold"),
      py::arg("channels"), py::arg("seed_cell"), py::arg("boundary"));
  m.attr("__version__") = DLCA_VERSION;
  m.def("experiment_names", py::overload_cast<>(&experiment_names));
  m.def("data_dir", [] { return data_dir().string(); });

  py::class_<RunOptions>(m, "RunOptions")
      .def(py::init<>())
      .def_readwrite("threads", &RunOptions::threads)
      .def_readwrite("backend", &RunOptions::backend)
      .def_readwrite("device", &RunOptions::device)
      .def_readwrite("log", &RunOptions::log)
      .def_readwrite("save", &RunOptions::save)
      .def_readwrite("summary", &RunOptions::summary)
      .def_readwrite("gif", &RunOptions::gif)
      .def_readwrite("histogram", &RunOptions::histogram)
      .def_readwrite("resume", &RunOptions::resume)
      .def_readwrite("max_memory", &RunOptions::max_memory)
      .def_readwrite("checkpoint_every", &RunOptions::checkpoint_every)
      .def_readwrite("keep_activations", &RunOptions::keep_activations)
      .def_readwrite("tile_cells", &RunOptions::tile_cells);

  py::class_<PyModel>(m, "Model")
      .def("__repr__",
           [](const PyModel& p) {
             const ExperimentConfig& c = p.model.config;
             std::string losses;
             if (!p.history.empty())
               losses = fmt::format(", soft loss {:.4g}, hard loss {:g}",
                                    p.history.back().soft_loss, p.history.back().hard_loss);
             return fmt::format(
                 "<dlca.Model {}: {}x{}, {} epochs{}, {} active gates ({} pruned), {} "
                 "gates, recipe {}>",
                 c.name, c.height, c.width, p.history.size(), losses, active_gate_count(p.model),
                 prune(p.model).gates.size(), gate_kind_name(c.gates), recipe_name(c.recipe));
           })
      .def_property_readonly("history", [](const PyModel& p) { return history_arrays(p.history); })
      .def_property_readonly("summary",
                             [](const PyModel& p) -> py::object {
                               return p.summary.is_null() ? py::none() : json_to_python(p.summary);
                             })
      .def_property_readonly(
          "config", [](const PyModel& p) { return json_to_python(config_to_json(p.model.config)); })
      .def_property_readonly(
          "task", [](const PyModel& p) { return json_to_python(task_to_json(p.model.task)); })
      .def_property_readonly("logits",
                             [](const PyModel& p) {
                               return per_gate(p.model.logits,
                                               parameters_per_gate(p.model.config.gates));
                             })
      .def_property_readonly("probabilities",
                             [](const PyModel& p) { return per_gate(op_probabilities(p.model)); })
      .def_property_readonly("ops",
                             [](const PyModel& p) {
                               const auto ops = hard_ops(p.model);
                               py::array_t<uint8_t> a(ops.size());
                               std::copy(ops.begin(), ops.end(), a.mutable_data());
                               return read_only(a);
                             })
      .def_property_readonly("wiring",
                             [](const PyModel& p) {
                               py::dict d;
                               d["perception"] = wiring_layers(p.model.perception_wiring);
                               d["update"] = wiring_layers(p.model.update_wiring);
                               return d;
                             })
      .def_property_readonly("num_perception_gates",
                             [](const PyModel& p) { return p.model.num_perception_gates(); })
      .def_property_readonly("active_gates",
                             [](const PyModel& p) { return active_gate_count(p.model); })
      .def_property_readonly("pruned_gates",
                             [](const PyModel& p) { return int(prune(p.model).gates.size()); })
      .def_property_readonly("source_path",
                             [](const PyModel& p) -> py::object {
                               if (p.source.empty()) return py::none();
                               return py::str(p.source);
                             })
      .def_property_readonly("is_checkpoint",
                             [](const PyModel& p) { return p.training.has_value(); })
      .def("save", &save, py::arg("path"))
      .def("run", &run_grid, py::arg("start"), py::arg("steps"), py::arg("async_") = false,
           py::arg("fire_rate") = py::none(), py::arg("seed") = py::none(),
           py::arg("periodic") = py::none())
      .def("export_text", &export_text, py::arg("format"), py::arg("name") = "")
      .def("gif", &write_gif, py::arg("path"), py::arg("start"));

  m.def("train", &train, py::arg("experiment"), py::arg("options"), py::arg("callback"));
  m.def("load", &load, py::arg("path"));
  m.def("read_cells", &read_cells, py::arg("path"), py::arg("height"), py::arg("width"),
        py::arg("colours") = "mono", py::arg("threshold") = kDefaultThreshold);
  m.def("write_file", [](const std::string& path, const std::string& text) {
    write_file_atomically(path, text);
  });
}
