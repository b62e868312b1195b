"""dlca from Python: train Differentiable Logic Cellular Automata, inspect and run their circuits.

    import dlca
    model = dlca.train("checkerboard_sync", epochs=300, seed=23,
                       callback=lambda epoch, soft_loss, hard_loss, active_gates: True)
    model.history["hard_loss"]          # numpy array, one entry per epoch (the CSV log's rows)
    model.save("cb.json"); m = dlca.load("cb.json")
    final = m.run(start, steps=80)      # the hard circuit; start, final: uint8 arrays H x W x C

Your own picture: dlca.train("image", target="heart.png") chooses the grid (the picture's size, at
most 32; size=), one channel or three (colours=) and the colored G's architecture, as
`dlca train image --target` does; threshold=, channels=, seed_cell= and boundary= change them as
its options do.

Training options are keyword arguments with the command line's names (underscores for dashes):
recipe= ("robust", the default, or "paper", the notebook's recipe bit for bit), gates=, starts= (a
count, or "auto": successive halving with new starts until one solves or budget_epochs= (the
option --budget) / budget_minutes= run out), stop_when_solved=, sharpen_to=, sharpen_start=, sharpen_end=, noise=,
noise_start=, noise_end=, repeat_schedule=, rounds=, harden=, harden_start=, harden_end=, grad_norm=, hard_feedback=, stay=,
lr_decay_to=, lr_decay_start=, lr_decay_end=, repair=, epochs=, seed=, lr=, adam_eps=, adam_beta1=, adam_beta2=,
weight_decay=, random_streams=, threads=, backend=,
device=, log=, save=, summary=, gif=, histogram=, checkpoint_every=, resume=, keep_activations=,
tile_cells=, max_memory=, and any key of the experiment's configuration (batch=, steps=, ...);
dlca.settings() says what each configuration key does.
Training runs with the GIL released; Ctrl-C stops it after the current epoch and raises
TrainingInterrupted, whose .model is the model so far. Errors are the programs' one-line messages,
raised as ValueError (bad options and configurations, ConfigError), OSError (files, FileError) or
RuntimeError (TrainingDiverged when the loss or gradient stops being finite; a log= file then
holds the epochs before it).
"""

import json as _json
import math as _math
import operator as _operator
import os as _os
import sys as _sys

import numpy as _np

from ._dlca import ConfigError, FileError, Model, TrainingDiverged
from . import _dlca

__all__ = ["__version__", "train", "load", "experiment", "experiment_names", "data_dir", "read_cells", "Model",
           "Experiment", "ConfigError", "FileError", "TrainingDiverged", "TrainingInterrupted",
           "RUN_OPTIONS", "settings"]

Experiment = _dlca.Experiment
__version__ = _dlca.__version__  # the dlca project's version (CMakeLists.txt)


class TrainingInterrupted(KeyboardInterrupt):
    """Ctrl-C during training: the run stopped after its epoch; .model holds what it had."""

    model = None


# Keyword options that say how to run, not what to train (the rest are configuration keys).
RUN_OPTIONS = ("threads", "backend", "device", "log", "save", "summary", "gif", "histogram",
               "resume", "max_memory", "checkpoint_every", "keep_activations", "tile_cells")
_BACKENDS = ("cpu", "vulkan", "auto")


def experiment_names():
    """The experiments data_dir() holds, by name (experiment(name) loads one)."""
    return _dlca.experiment_names()


def data_dir():
    """The folder experiment names are looked up in (DLCA_DATA_DIR, or the one dlca came with)."""
    return _dlca.data_dir()


def _json_default(value):
    """numpy values in options and experiment dicts: as the Python numbers and lists they hold."""
    if isinstance(value, (_np.generic, _np.ndarray)):
        return value.tolist()
    raise TypeError("%r (%s) is not a JSON value" % (value, type(value).__name__))


_JSON_LEAVES = (type(None), bool, int, float, str, _np.generic, _np.ndarray)


_MAX_JSON_DEPTH = 64  # the nesting dlca's JSON reader takes (kMaxJsonDepth)


def _check_value(value, where, top=None, depth=1):
    """What JSON cannot carry, refused here with the key named, as the programs do: NaN and
    infinity, integers beyond 64 bits (JSON readers take them as floats), and values of other
    types (a complex number, an object). Nesting deeper than the reader takes is refused as it
    refuses it, naming `top` (the whole value's name), before it can exhaust Python's stack."""
    top = where if top is None else top
    if depth > _MAX_JSON_DEPTH and isinstance(value, (dict, list, tuple)):
        raise ConfigError("%s: nested deeper than %d levels" % (top, _MAX_JSON_DEPTH))
    if isinstance(value, int) and not isinstance(value, bool) and not -2**63 <= value < 2**64:
        raise ConfigError("%s: %d is out of range (integers are from -2**63 to 2**64-1)"
                          % (where, value))
    if not isinstance(value, _JSON_LEAVES + (dict, list, tuple)):
        raise TypeError("%s: %r (%s) is not a JSON value" % (where, value, type(value).__name__))
    if isinstance(value, (float, _np.floating)) and not _math.isfinite(value):
        raise ConfigError("%s: must be a finite number, got %r" % (where, float(value)))
    if isinstance(value, _np.ndarray) and value.dtype.kind == "f" and not _np.isfinite(value).all():
        raise ConfigError("%s: must hold finite numbers only" % where)
    if isinstance(value, dict):
        for key, item in value.items():
            _check_value(item, key if where in ("experiment", "config", "task") else where, top,
                         depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _check_value(item, where, top, depth + 1)


def _dumps(value, where="config"):
    _check_value(value, where)
    return _json.dumps(value, default=_json_default, allow_nan=False)


def experiment(source):
    """An experiment: a name (experiment_names()), a path to a .json file, or a dict of the same
    form ({"config": {...}, "task": {...}}; image paths relative to the working directory)."""
    if isinstance(source, Experiment):
        return source
    if isinstance(source, dict):
        return _dlca.experiment_from_json(_dumps(source, "experiment"), _os.getcwd())
    if isinstance(source, (str, _os.PathLike)):
        return _dlca.load_experiment(_os.fspath(source))
    raise TypeError("experiment: must be a name, a path or a dict, got %s" % type(source).__name__)


def _no_nul(key, text):
    """Text passed on to C++, where a NUL byte would end it early (and cut the error message), and
    which takes UTF-8 only (a file name of other bytes reaches Python as text it cannot encode)."""
    if isinstance(text, str):
        if "\0" in text:
            raise ValueError("%s: contains a NUL byte, got %r" % (key, text))
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("%s: not valid UTF-8 (dlca takes UTF-8 file names and text), got %r"
                             % (key, text)) from None
    return text


def settings():
    """Every configuration key train() takes, with what it does and its command-line option:
    {key: (help, option)}; option is "" for keys only experiment files set (the network's shape)."""
    return {key: (help, option) for key, option, help in _dlca.settings()}


def _configured(exp, options):
    """The experiment with configuration keys from `options` applied, as the command line does
    (recipe first, with its defaults for starts, stop_when_solved, repair and halving unless those
    are given; the core's apply_settings)."""
    given = {}
    for key, value in options.items():
        if key not in _dlca.config_keys():
            raise ValueError("%s: not a training option or configuration key (options: %s; keys: %s)"
                             % (key, ", ".join(RUN_OPTIONS), ", ".join(sorted(_dlca.config_keys()))))
        given[key] = _no_nul(key, value)
    return exp.with_settings(_dumps(given))


_COUNTS = ("threads", "checkpoint_every", "tile_cells")  # non-negative integers (0: automatic)
_MAX_THREADS = 4096  # the programs' --threads limit


def _run_option(key, value):
    """A run option checked as the command line checks it, with a one-line error naming it."""
    if key == "backend":
        if value not in _BACKENDS:
            raise ValueError("backend: must be one of %s, got %r" % (", ".join(_BACKENDS), value))
        return value
    if key == "keep_activations":
        if not isinstance(value, (bool, _np.bool_)):
            raise TypeError("keep_activations: must be True or False, got %r" % (value,))
        return bool(value)
    if key in _COUNTS or key == "device":
        if isinstance(value, (bool, _np.bool_)) or not isinstance(value, (int, _np.integer)):
            raise TypeError("%s: must be an integer, got %r" % (key, value))
        if not 0 <= value < 2 ** 31:
            raise ValueError("%s: must be a non-negative integer, got %d" % (key, value))
        if key == "threads" and value > _MAX_THREADS:
            raise ValueError("threads: must be an integer from 0 to %d, got %d" % (_MAX_THREADS, value))
        return int(value)
    if not isinstance(value, (str, _os.PathLike)):  # files, and max_memory's size
        raise TypeError("%s: must be a path or text, got %r" % (key, value))
    if _os.fspath(value) == "":  # as the programs refuse --save ''
        raise ValueError("%s: an empty path or text (leave the option out instead)" % key)
    _no_nul(key, _os.fspath(value))
    if key == "max_memory":
        return _os.fspath(value)
    # Files are resolved now: a callback that changes directory does not move a run's outputs.
    # (Joined, not normalised: "link/.." stays for the system to resolve, as the programs do.)
    return _os.path.join(_os.getcwd(), _os.fspath(value))


def _progress_bar(wanted, verbose, total):
    """The progress bar train() shows: a tqdm bar (Debian's python3-tqdm) of `total` epochs, or
    None. wanted None: shown in a terminal or a notebook when tqdm is installed and not verbose."""
    if wanted is not None and not isinstance(wanted, (bool, _np.bool_)):
        raise TypeError("progress: must be True, False or None, got %r" % (wanted,))
    if wanted is False or (wanted is None and verbose):
        return None
    try:
        import tqdm
    except ImportError:
        if wanted:
            raise ValueError("progress: needs tqdm (Debian's python3-tqdm)") from None
        return None
    in_notebook = "ipykernel" in _sys.modules
    if wanted is None and not (in_notebook or _sys.stderr.isatty()):
        return None
    try:  # a widget in notebooks that have ipywidgets, text elsewhere
        import ipywidgets  # noqa: F401
        from tqdm.auto import tqdm as bar
    except ImportError:
        from tqdm.std import tqdm as bar
    return bar(total=total, unit="epoch", leave=True)


def train(source, callback=None, verbose=False, print_every=None, progress=None, **options):
    """Trains an experiment (see experiment()) and returns the trained Model.

    callback(epoch, soft_loss, hard_loss, active_gates) is called after every epoch; returning
    False stops the run there. verbose=True prints a line every print_every epochs (100 unless
    given; refused without verbose, where it would change nothing) and the summary the programs
    print. progress: a progress bar of the epochs with the losses (tqdm, when
    installed); None (the default) shows it in terminals and notebooks unless verbose, False
    never, True always. Other keywords: see the module's help."""
    if not isinstance(verbose, (bool, _np.bool_)):
        raise TypeError("verbose: must be True or False, got %r" % (verbose,))
    if callback is not None and not callable(callback):  # before any epoch is trained
        raise TypeError("callback: must be a function (epoch, soft_loss, hard_loss, active_gates) "
                        "or None, got %r" % (callback,))
    if print_every is None:
        print_every = 100
    elif not verbose:  # as the programs refuse --print-every with --quiet
        raise ValueError("print_every: has no effect without verbose=True")
    if isinstance(print_every, (bool, _np.bool_)) or not isinstance(print_every, (int, _np.integer)):
        raise TypeError("print_every: must be an integer, got %r" % (print_every,))
    if print_every < 1:
        raise ValueError("print_every: must be a positive integer, got %d" % print_every)
    print_every = int(print_every)
    run = _dlca.RunOptions()
    config_options = {}
    for key, value in options.items():
        if key in RUN_OPTIONS:
            setattr(run, key, _run_option(key, value))
        else:
            config_options[key] = value
    if "device" in options and options.get("backend", "cpu") == "cpu":  # as the programs refuse it
        raise ValueError("device: the CPU backend has no devices (give backend='vulkan' or 'auto')")
    for key in ("tile_cells", "keep_activations"):  # CPU backend options, as the programs say
        if key in options and options.get("backend") == "vulkan":
            raise ValueError("%s: a CPU backend option, with no effect with backend='vulkan'" % key)
    if isinstance(source, str) and source == "image":  # the user's picture: choices made from it
        source = _picture_experiment(config_options, verbose)
    exp = _configured(experiment(source), config_options)

    # (until the first epoch says the last one the run may reach: with robust's rounds, more)
    epochs = _json.loads(exp.config_json())["epochs"]
    bar = _progress_bar(progress, verbose, epochs)

    # verbose: the programs' lines; `epoch` is the epoch's index, from 0, as in history. The first
    # epoch (of a resumed run too), every print_every-th and the last shown are printed.
    last_shown = last_printed = None

    def line(epoch, soft_loss, hard_loss, active_gates):
        nonlocal last_printed
        print("epoch %6d (%d/%d)  soft %10.4f  hard %5.0f  active %5d"
              % (epoch, epoch + 1, epochs, soft_loss, hard_loss, active_gates), flush=True)
        last_printed = epoch

    def each_epoch(epoch, soft_loss, hard_loss, active_gates, last_epoch):
        nonlocal last_shown, epochs
        if last_epoch != epochs:
            epochs = last_epoch
            if bar is not None:
                bar.total = last_epoch
        if bar is not None:
            bar.update(epoch + 1 - bar.n)
            bar.set_postfix(soft="%.4g" % soft_loss, hard="%d" % hard_loss, refresh=False)
        if verbose:
            last_shown = (epoch, soft_loss, hard_loss, active_gates)
            if last_printed is None or epoch % print_every == 0 or epoch + 1 == epochs:
                line(*last_shown)
        return True if callback is None else callback(epoch, soft_loss, hard_loss, active_gates)

    try:
        model = _dlca.train(exp, run, each_epoch if (verbose or callback or bar) else None)
    finally:
        if bar is not None:
            bar.close()
    if verbose:
        if last_shown is not None and last_shown[0] != last_printed:
            line(*last_shown)  # a run that stopped early (solved, or its budget spent)
        print(model.summary["report"], end="", flush=True)
    return model


def _picture_experiment(options, verbose):
    """train("image", target=PICTURE, size=N, colours="mono"|"8colour", threshold=X, channels=N,
    seed_cell="center"|"none", boundary="periodic"|"zero"): the experiment dlca chooses for the
    picture (grid size, colours, the colored G's architecture), as `dlca train image --target`
    does, with those given changed as its options change them; they are taken out of the
    options."""
    if "target" not in options:
        raise ValueError("target: train('image', ...) grows a picture: give target='picture.png'")
    target = _path("target", options.pop("target"))
    size = options.pop("size", None)
    if size is not None and (isinstance(size, (bool, _np.bool_))
                             or not isinstance(size, (int, _np.integer))):
        raise TypeError("size: must be an integer, got %r" % (size,))
    words = {}
    for key, allowed in (("colours", "'mono' or '8colour'"), ("seed_cell", "'center' or 'none'"),
                         ("boundary", "'periodic' or 'zero'")):
        words[key] = options.pop(key, None)
        if words[key] is not None and not isinstance(words[key], str):  # values checked in C++
            raise TypeError("%s: must be %s, got %r" % (key, allowed, words[key]))
    channels = options.pop("channels", None)
    if channels is not None and (isinstance(channels, (bool, _np.bool_))
                                 or not isinstance(channels, (int, _np.integer))):
        raise TypeError("channels: must be an integer, got %r" % (channels,))
    threshold = options.pop("threshold", None)
    if threshold is not None and (isinstance(threshold, (bool, _np.bool_))
                                  or not isinstance(threshold, (int, float, _np.number))):
        raise TypeError("threshold: must be a number, got %r" % (threshold,))
    exp, description = _dlca.picture_experiment(
        target, None if size is None else int(size), words["colours"],
        None if threshold is None else float(threshold), None if channels is None else int(channels),
        words["seed_cell"], words["boundary"])
    if verbose:
        print(description, flush=True)
    return exp


def _path(name, value):
    """A file argument as text, or a one-line TypeError naming the argument."""
    if not isinstance(value, (str, _os.PathLike)):
        raise TypeError("%s: must be a path (str or os.PathLike), got %r" % (name, value))
    if _os.fspath(value) == "":
        raise ValueError("%s: an empty path names no file" % name)
    return _no_nul(name, _os.fspath(value))


def load(path):
    """A model file (either kind) written by dlca: a Model."""
    return _dlca.load(_path("path", path))


def read_cells(path, height, width, colours="mono", threshold=0.26):
    """A PNG read as cells, uint8 height x width x k (k = 1 for "mono", 3 for "8colour"), resized
    and thresholded as dlca run --init reads it."""
    for key, value in (("height", height), ("width", width)):
        if isinstance(value, (bool, _np.bool_)) or not isinstance(value, (int, _np.integer)):
            raise TypeError("%s: must be an integer, got %r" % (key, value))
        if not 1 <= value <= 65536:
            raise ValueError("%s: must be between 1 and 65536, got %d" % (key, value))
    if not isinstance(colours, str):
        raise TypeError("colours: must be \"mono\" or \"8colour\", got %r" % (colours,))
    if colours not in ("mono", "8colour"):
        raise ValueError("colours: must be \"mono\" or \"8colour\", got %r" % (colours,))
    if isinstance(threshold, (bool, _np.bool_)) or not isinstance(threshold, (int, float, _np.number)):
        raise TypeError("threshold: must be a number, got %r" % (threshold,))
    if not 0 <= threshold <= 1:  # NaN too
        raise ValueError("threshold: must be between 0 and 1, got %r" % (threshold,))
    return _dlca.read_cells(_path("path", path), int(height), int(width), colours, float(threshold))


def _export(self, path, format=None, name=""):
    """Writes the pruned hard circuit as C (.c), Verilog (.v), DigitalJS (.json, stock DigitalJS's
    device types, as dlca export writes by default) or the browser page that runs it (.html);
    format defaults from the file's extension. The file is written atomically."""
    path = _path("path", path)
    if format is not None and not isinstance(format, str):  # None: from the file's extension
        raise TypeError("format: must be c, verilog, digitaljs or html, got %r" % (format,))
    if _os.path.isdir(path):
        raise ValueError("%s: is a directory; give a file name" % path)
    source = self.source_path
    try:
        same = source is not None and _os.path.samefile(path, source)
    except OSError:  # either file missing: not the same file
        same = False
    if same:
        raise ValueError("%s: is the file this model was loaded from; write it somewhere else"
                         % path)
    if format is None:
        format = {".c": "c", ".v": "verilog", ".json": "digitaljs",
                  ".html": "html"}.get(_os.path.splitext(path)[1])
        if format is None:
            raise ValueError("%s: give format= (c, verilog, digitaljs or html) or a .c, .v, .json "
                             "or .html name" % path)
    _dlca.write_file(path, self.export_text(format, name))


def _run(self, start, steps, async_=None, fire_rate=None, seed=None, periodic=None, **kw):
    """Runs the hard circuit for `steps` steps from `start` (uint8 H x W x k, k up to the model's
    channels; the other channels start at 0) and returns the grid, uint8 H x W x C. Synchronous,
    or asynchronous (async_=True or run(..., **{"async": True})) with cells firing at fire_rate,
    drawn from seed as `dlca_run --async --seed` draws them (defaults 0.6 and 0; both only with
    async_). periodic: the model's boundary by default."""
    if kw:
        if set(kw) != {"async"}:
            raise TypeError("run: unexpected keyword %s" % ", ".join(sorted(set(kw) - {"async"})))
        if async_ is not None:
            raise TypeError("run: give async_ or async, not both")
        async_ = kw["async"]
    if async_ is None:
        async_ = False
    for name, value in (("steps", steps), ("seed", 0 if seed is None else seed)):
        if isinstance(value, bool) or not isinstance(value, (int, _np.integer)):
            raise TypeError("%s: must be an integer, got %r" % (name, value))
    if not isinstance(async_, (bool, _np.bool_)):
        raise TypeError("async: must be True or False, got %r" % (async_,))
    if fire_rate is not None and (isinstance(fire_rate, (bool, _np.bool_)) or not isinstance(
            fire_rate, (int, float, _np.integer, _np.floating))):
        raise TypeError("fire_rate: must be a number, got %r" % (fire_rate,))
    if periodic is not None and not isinstance(periodic, (bool, _np.bool_)):
        raise TypeError("periodic: must be True, False or None, got %r" % (periodic,))
    if seed is not None and not 0 <= seed < 2 ** 64:
        raise ValueError("seed: must be from 0 to 2^64-1, got %d" % seed)
    if not -2 ** 31 <= steps < 2 ** 31:
        raise ValueError("steps: must be below 2^31, got %d" % steps)
    cells = _np.asarray(start)
    if cells.dtype.kind not in "biuf":
        raise TypeError("start: must hold numbers (cells: non-zero = live), got dtype %s" % cells.dtype)
    if cells.ndim not in (2, 3):
        raise ValueError("start: must be an array H x W or H x W x C, got %d dimensions" % cells.ndim)
    for side in cells.shape[:2]:  # before any pass over it, which a huge view would not survive
        if side > 65536:
            raise ValueError("start: at most 65536 cells a side, got %d" % side)
    if cells.dtype.kind == "f" and not _np.isfinite(cells).all():
        raise ValueError("start: contains NaN or infinity (cells are 0 or 1; non-zero = live)")
    cells = (cells != 0).astype(_np.uint8)  # any non-zero value is a live cell
    return Model._run_compiled(self, cells, _operator.index(steps), bool(async_),
                               None if fire_rate is None else float(fire_rate),
                               None if seed is None else _operator.index(seed),
                               None if periodic is None else bool(periodic))


def _export_text(self, format, name=""):
    """The pruned hard circuit as text: format c, verilog, digitaljs (stock DigitalJS's device
    types) or html; name: the C or Verilog identifier (default: the experiment's)."""
    if not isinstance(format, str):
        raise TypeError("format: must be c, verilog, digitaljs or html, got %r" % (format,))
    if not isinstance(name, str):
        raise TypeError("name: must be text (a C or Verilog identifier), got %r" % (name,))
    return Model._export_text_compiled(self, _no_nul("format", format), _no_nul("name", name))


def _with_config(self, text):
    """This experiment with its configuration replaced by `text` (JSON, as config_json())."""
    if not isinstance(text, str):
        raise TypeError("with_config: must be JSON text (str), got %r" % (text,))
    return Experiment._with_config_compiled(self, _no_nul("with_config", text))


def _save(self, path):
    """Writes the model (a resumable checkpoint when it was trained or loaded as one) atomically."""
    Model._save_compiled(self, _path("path", path))


def _start_grid(model, seed):
    """The grid training starts from, uint8 H x W x C: a picture's empty grid or seed cell, else
    random cells drawn from `seed`."""
    config, task = model.config, model.task or {}
    height, width, channels = config["height"], config["width"], config["channels"]
    start = _np.zeros((height, width, channels), _np.uint8)
    if task.get("kind") == "image":
        if task.get("seed_cell") == "center":
            start[height // 2, width // 2, :] = 1
        return start
    return (_np.random.default_rng(seed).random(start.shape) < 0.5).astype(_np.uint8)


def _show(self, steps=None, start=None, seed=0):
    """The hard circuit's grid after `steps` (default: the steps it was trained for) as an RGB
    image, a uint8 array H x W x 3 (matplotlib's imshow takes it): channels 0-2 as red, green and
    blue for a model of a colour picture, else channel 0 in white on black. `start`: the grid to
    start from (uint8 H x W x C, as run() takes); default: as training started its grids (a
    picture: an empty grid, or its seed cell; the others: random cells drawn from `seed`)."""
    config = self.config
    task = self.task or {}
    if start is None:
        start = _start_grid(self, seed)
    state = self.run(start, steps=config["steps"] if steps is None else steps)
    colour = task.get("kind") == "image" and task.get("planes", 1) >= 3 and state.shape[2] >= 3
    planes = state[..., :3] if colour else _np.repeat(state[..., :1], 3, axis=2)
    return (planes * 255).astype(_np.uint8)


def _gif(self, path, start=None, seed=0):
    """Writes an animated GIF of the hard circuit growing from `start` (as show() takes it;
    default: as training started its grids) for twice the steps it was trained for, 0.1 s a step,
    the trained step held a second: the GIF that training's gif= option writes."""
    config = self.config
    shape = (config["height"], config["width"], config["channels"])
    if start is None:
        cells = _start_grid(self, seed)
    else:
        given = _np.asarray(start)
        if given.ndim == 2:
            given = given[..., None]
        if given.ndim != 3 or given.shape[:2] != shape[:2] or given.shape[2] > shape[2]:
            raise ValueError("start: must be the model's grid, %d x %d (x up to %d channels), got %s"
                             % (shape[0], shape[1], shape[2], "x".join(map(str, given.shape))))
        if given.dtype.kind not in "biuf":
            raise TypeError("start: must hold numbers (cells: non-zero = live), got dtype %s"
                            % given.dtype)
        cells = _np.zeros(shape, _np.uint8)
        cells[..., :given.shape[2]] = given != 0
    Model._gif_compiled(self, _path("path", path), cells)


def _repr_html(self):
    """Jupyter's view of a model: its live browser page inline (export_text("html") in an
    iframe; self-contained, no network)."""
    import html as _html
    page = self.export_text("html")
    return ('<iframe srcdoc="%s" style="width:100%%;height:640px;border:0" '
            'title="dlca circuit"></iframe>' % _html.escape(page, quote=True))


# The compiled methods, kept once: importlib.reload(dlca) must not wrap the wrappers.
if not hasattr(Model, "_save_compiled"):
    Model._save_compiled = Model.save
    Model._run_compiled = Model.run
    Model._export_text_compiled = Model.export_text
    Model._gif_compiled = Model.gif
    Experiment._with_config_compiled = Experiment.with_config
Model.save = _save
Model.run = _run
Model.export = _export
Model.export_text = _export_text
Model.show = _show
Model.gif = _gif
Model._repr_html_ = _repr_html
Experiment.with_config = _with_config
