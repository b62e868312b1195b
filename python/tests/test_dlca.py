"""Tests of the Python module against the programs: the same training, the same hard circuit runs,
the same one-line errors. Run by ctest (python.module) with PYTHONPATH at the built package and
DLCA_BIN at the programs."""

import contextlib
import importlib
import io
import json
import os
import pathlib
import re
import signal
import subprocess
import tempfile
import threading
import unittest

import numpy as np

import dlca

BIN = os.environ.get("DLCA_BIN", "")
# Set by the sanitizer build's test (tests/CMakeLists.txt): the longest trainings are left out there
# (minutes each under AddressSanitizer); the Release run has them, and their code paths (training,
# multi-start, halving) are run under the sanitizer by the shorter tests and the programs' tests.
SANITIZED = os.environ.get("DLCA_TEST_SANITIZED") == "1"
slow_under_sanitizers = unittest.skipIf(SANITIZED, "a long training: left out under the sanitizers")


def program(name, *args, cwd=None):
    return subprocess.run([os.path.join(BIN, name), *map(str, args)], cwd=cwd, check=True,
                          capture_output=True, text=True).stdout


class Scratch(unittest.TestCase):
    def setUp(self):
        self._dir = tempfile.TemporaryDirectory()
        self.dir = self._dir.name

    def tearDown(self):
        self._dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)


class TrainingTest(Scratch):
    def test_progress_bar(self):
        # progress=True: a tqdm bar of the epochs with the losses on stderr; the default shows none
        # where stderr is no terminal. tqdm is optional for the module but not for this test:
        # tools/install_deps.sh installs it (Debian's python3-tqdm), and a skip here would pass
        # unseen inside python.module.
        import tqdm  # noqa: F401
        import contextlib
        import io
        shown = io.StringIO()
        with contextlib.redirect_stderr(shown):
            dlca.train("checkerboard_sync", epochs=4, starts=1, steps=2, progress=True)
            dlca.train("checkerboard_sync", epochs=3, starts=1, steps=2)
        self.assertIn("4/4", shown.getvalue())
        self.assertIn("hard=", shown.getvalue())
        self.assertNotIn("3/3", shown.getvalue())
        with self.assertRaisesRegex(TypeError, "progress: must be True, False or None"):
            dlca.train("checkerboard_sync", epochs=1, progress="yes")

    @slow_under_sanitizers
    def test_same_run_as_the_program(self):
        # The paper's checkerboard, seed 23: hard loss 0 first at epoch 244, as train_checkerboard.
        seen = []
        model = dlca.train("checkerboard_sync", recipe="paper", epochs=250, seed=23, threads=2,
                           callback=lambda e, s, h, a: seen.append((e, h)) is None)
        hard = model.history["hard_loss"]
        self.assertEqual(len(hard), 250)
        self.assertEqual(int(np.argmax(hard == 0)), 244)
        self.assertEqual(seen[244], (244, 0.0))
        program("train_checkerboard", "--recipe", "paper", "--epochs", 250, "--threads", 2,
                "--quiet", "--summary", self.path("s.json"))
        with open(self.path("s.json")) as f:
            cli = json.load(f)
        self.assertEqual(cli["first_zero_epoch"], 244)
        self.assertEqual(model.summary["logits_checksum"], cli["logits_checksum"])

    def test_input_wise_gates_as_the_program(self):
        # gates="inputwise": 4 angles a gate, the same parameters as the program's --gates inputwise.
        # (without the repair: as slow as the rest of the test under the sanitizers)
        model = dlca.train("checkerboard_sync", epochs=4, gates="inputwise", threads=1, repair=False)
        self.assertEqual(model.logits.shape, (3040, 4))
        self.assertEqual(model.probabilities.shape, (3040, 16))
        self.assertEqual(model.config["gates"], "inputwise")
        program("train_checkerboard", "--epochs", 4, "--gates", "inputwise", "--threads", 1,
                "--no-repair", "--quiet", "--summary", self.path("s.json"))
        with open(self.path("s.json")) as f:
            self.assertEqual(model.summary["logits_checksum"], json.load(f)["logits_checksum"])
        with self.assertRaisesRegex(dlca.ConfigError, "^noise: acts on softmax logits"):
            dlca.train("checkerboard_sync", epochs=2, gates="inputwise", noise=0.1)
        # robust takes input-wise gates for the checkerboard unless gates= is given.
        robust = dict(epochs=2, steps=2, recipe="robust", starts=2, threads=2, repair=False)
        self.assertEqual(dlca.train("checkerboard_sync", **robust).config["gates"], "inputwise")
        self.assertEqual(dlca.train("checkerboard_sync", gates="softmax", **robust).config["gates"],
                         "softmax")

    def test_progressive_hardening_as_the_program(self):
        # harden=, harden_start=, harden_end=: the program's --harden options, the same parameters.
        options = dict(recipe="paper", epochs=6, steps=3, harden=2, harden_start=2, threads=1)
        model = dlca.train("checkerboard_sync", **options)
        self.assertEqual(model.config["harden"], 2)
        program("train_checkerboard", "--recipe", "paper", "--epochs", 6, "--steps", 3, "--harden", 2,
                "--harden-start", 2, "--threads", 1, "--quiet", "--summary", self.path("s.json"))
        with open(self.path("s.json")) as f:
            self.assertEqual(model.summary["logits_checksum"], json.load(f)["logits_checksum"])
        self.assertTrue(dlca.train("checkerboard_sync", recipe="paper", epochs=2, steps=2,
                                   grad_norm=True, threads=1).config["grad_norm"])
        with self.assertRaisesRegex(dlca.ConfigError, "^harden_end: must be 0"):
            dlca.train("checkerboard_sync", epochs=6, harden=2, harden_start=4, harden_end=3)

    def test_callback_false_stops(self):
        model = dlca.train("checkerboard_sync", epochs=50, steps=2,
                           callback=lambda e, s, h, a: e < 9)
        self.assertEqual(len(model.history["epoch"]), 10)
        self.assertTrue(model.summary["interrupted"])
        # verbose: the first line, each print_every-th, and the last shown though the run stopped
        # early; epochs named by their index, then how many ran of the run's.
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            dlca.train("checkerboard_sync", epochs=50, steps=2, verbose=True, print_every=4,
                       callback=lambda e, s, h, a: e < 9)
        self.assertEqual(re.findall(r"^epoch +(\d+) \((\d+)/50\)", out.getvalue(), re.M),
                         [("0", "1"), ("4", "5"), ("8", "9"), ("9", "10")])

    def test_verbose_lines_count_to_the_last_round(self):
        # A run with rounds counts to its last epoch: 4 epochs and one round of 2 when unsolved.
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            model = dlca.train("checkerboard_sync", epochs=4, steps=2, noise=0.1, noise_start=2,
                               rounds=1, starts=1, repair=False, threads=1, verbose=True)
        self.assertEqual(len(model.history["epoch"]), 6)
        self.assertEqual(re.findall(r"^epoch +(\d+) \((\d+)/(\d+)\)", out.getvalue(), re.M),
                         [("0", "1", "6"), ("5", "6", "6")])

    def test_callback_exception_propagates(self):
        def fail(epoch, *_):
            if epoch == 2:
                raise ZeroDivisionError("from the callback")
            return True
        with self.assertRaisesRegex(ZeroDivisionError, "from the callback"):
            dlca.train("checkerboard_sync", epochs=20, steps=2, callback=fail)

    def test_callback_truthiness_is_pythons(self):
        class Undecided:
            def __bool__(self):
                raise ZeroDivisionError("no truth value")
        with self.assertRaisesRegex(ZeroDivisionError, "no truth value"):
            dlca.train("checkerboard_sync", epochs=5, steps=2, callback=lambda *_: Undecided())
        model = dlca.train("checkerboard_sync", epochs=5, steps=2, callback=lambda *_: [])
        self.assertEqual(len(model.history["epoch"]), 1)  # an empty list is false: stop

    def test_ctrl_c_stops_cleanly(self):
        timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        try:
            with self.assertRaises(dlca.TrainingInterrupted) as caught:
                dlca.train("checkerboard_sync", epochs=100000, steps=2)
        finally:
            timer.cancel()
        self.assertIsInstance(caught.exception, KeyboardInterrupt)
        partial = caught.exception.model
        self.assertGreater(len(partial.history["epoch"]), 0)
        self.assertLess(len(partial.history["epoch"]), 100000)

    def test_ctrl_c_while_the_callback_runs_is_an_interruption(self):
        # It was a plain KeyboardInterrupt, without the model.
        def interrupt(epoch, *_):
            if epoch == 1:
                signal.raise_signal(signal.SIGINT)
            return True
        with self.assertRaises(dlca.TrainingInterrupted) as caught:
            dlca.train("checkerboard_sync", epochs=5, steps=2, callback=interrupt)
        self.assertEqual(len(caught.exception.model.history["epoch"]), 2)

    def test_a_stop_before_the_repair_is_an_interruption(self):
        # Stopped at its last epoch, the repair it was asked for is not done: interrupted, not
        # finished.
        model = dlca.train("checkerboard_sync", epochs=2, steps=2, repair=True,
                           callback=lambda e, *_: e < 1)
        self.assertEqual(len(model.history["epoch"]), 2)
        self.assertTrue(model.summary["interrupted"])

    def test_save_load_and_resume(self):
        # (without the repair, which took most of this test's minute under the sanitizers)
        first = dlca.train("checkerboard_sync", epochs=4, steps=3, repair=False,
                           save=self.path("m.json"))
        loaded = dlca.load(self.path("m.json"))
        np.testing.assert_array_equal(loaded.logits, first.logits)
        self.assertTrue(loaded.is_checkpoint)
        resumed = dlca.train("checkerboard_sync", epochs=8, steps=3, repair=False,
                             resume=self.path("m.json"))
        straight = dlca.train("checkerboard_sync", epochs=8, steps=3, repair=False)
        self.assertEqual(resumed.summary["logits_checksum"], straight.summary["logits_checksum"])
        np.testing.assert_array_equal(resumed.history["hard_loss"], straight.history["hard_loss"])

    def test_multi_start_model_saved_after_a_stop_resumes(self):
        # A model of several starts saved with .save() had no multi-start block: its resume with
        # the same starts was refused. It holds what save= writes now.
        stopped = dlca.train("checkerboard_sync", epochs=6, steps=2, starts=2, repair=False,
                             callback=lambda e, *_: e < 2)
        stopped.save(self.path("stopped.json"))
        with open(self.path("stopped.json")) as f:
            self.assertEqual(len(json.load(f)["multi_start"]["candidates"]), 2)
        resumed = dlca.train("checkerboard_sync", epochs=6, steps=2, starts=2, repair=False,
                             resume=self.path("stopped.json"))
        straight = dlca.train("checkerboard_sync", epochs=6, steps=2, starts=2, repair=False)
        self.assertEqual(resumed.summary["logits_checksum"], straight.summary["logits_checksum"])

    @slow_under_sanitizers
    def test_starts_auto(self):
        # Successive halving with new starts until the budget (in candidate epochs) is spent.
        model = dlca.train("checkerboard_sync", epochs=8, steps=2, starts="auto", budget_epochs=40,
                           threads=1)
        record = model.summary["candidates"]
        self.assertTrue(record["halving"])
        self.assertEqual(record["budget_epochs"], 40)
        self.assertGreaterEqual(record["epochs_used"], 40)
        self.assertGreater(record["tried"], 4)
        self.assertEqual(model.summary["starts"], record["tried"])
        # Unsolved: saved, the whole run continues under a larger budget as if it had had it.
        model.save(self.path("auto.json"))
        more = dict(epochs=8, steps=2, starts="auto", budget_epochs=60, threads=1)
        again = dlca.train("checkerboard_sync", resume=self.path("auto.json"), **more)
        straight = dlca.train("checkerboard_sync", **more)
        self.assertEqual(again.summary["candidates"], straight.summary["candidates"])
        self.assertEqual(again.summary["logits_checksum"], straight.summary["logits_checksum"])
        with self.assertRaisesRegex(dlca.ConfigError, "^budget_epochs: has no effect without"):
            dlca.train("checkerboard_sync", epochs=2, starts=2, budget_epochs=10)

    def test_recipe_and_dict_experiment(self):
        model = dlca.train("checkerboard_sync", recipe="robust", epochs=2, steps=2)
        self.assertEqual(model.summary["starts"], 4)
        with open(os.path.join(dlca.data_dir(), "game_of_life.json")) as f:
            spec = json.load(f)
        spec["config"]["epochs"] = 3
        model = dlca.train(spec)
        self.assertEqual(model.config["epochs"], 3)
        self.assertEqual(model.task["kind"], "game_of_life")
        # robust, the default, trains Game of Life with input-wise gates: 4 angles, 16 op weights.
        self.assertEqual(model.config["recipe"], "robust")
        self.assertEqual(model.logits.shape[1], 4)
        self.assertEqual(model.probabilities.shape, (model.logits.shape[0], 16))
        np.testing.assert_allclose(model.probabilities.sum(axis=1), 1, rtol=1e-5)

    def test_settings_table(self):
        settings = dlca.settings()
        self.assertEqual(settings["harden_start"][1], "--harden-start")
        self.assertIn("hardening", settings["harden_start"][0])
        self.assertEqual(settings["update_layers"][1], "")  # the network: files only
        self.assertEqual(set(settings), set(dlca._dlca.config_keys()))
        # A recipe given with a count of starts keeps the count; its other values are the recipe's.
        model = dlca.train("checkerboard_sync", recipe="robust", starts=2, epochs=2, steps=2,
                           threads=1, repair=False)
        self.assertEqual(model.summary["starts"], 2)
        self.assertEqual(model.config["stop_when_solved"], 1)
        self.assertFalse(model.config["halving"])
        self.assertFalse(model.config["repair"])

    def test_version_and_repr(self):
        self.assertRegex(dlca.__version__, r"^[0-9]+\.[0-9]+\.[0-9]+$")
        model = dlca.train("checkerboard_sync", recipe="paper", epochs=2, steps=2, threads=1)
        self.assertRegex(repr(model), r"^<dlca\.Model checkerboard_sync: 16x16, 2 epochs, soft loss "
                         r"[0-9.]+, hard loss [0-9]+, [0-9]+ active gates \([0-9]+ pruned\), "
                         r"softmax gates, recipe paper>$")

    def test_own_picture(self):
        # train("image", target=...): the picture chooses the grid and the colours, as the program.
        heart = os.path.join(dlca.data_dir(), "pictures", "heart.png")
        short = dict(epochs=1, starts=1, repair=False, threads=1)
        model = dlca.train("image", target=heart, **short)
        self.assertEqual((model.config["height"], model.config["width"]), (24, 24))
        self.assertEqual(model.config["loss_channels"], [0])
        self.assertEqual(model.task["kind"], "image")
        # Whether the grown picture stays: its wrong bits at every step from T = 19 to 2T.
        kept = model.summary["kept"]
        self.assertEqual((kept["from"], kept["to"], len(kept["wrong_bits"])), (19, 38, 20))
        self.assertEqual(kept["exact"], max(kept["wrong_bits"]) == 0)
        # One epoch leaves it unsolved: the report's last line says what may still solve it, in
        # keywords; with no checkpoint saved, no resume to name.
        self.assertRegex(model.summary["report"],
                         r"\nnot solved: another seed \(seed=%d\) trains other wirings\n$"
                         % (model.config["seed"] + 1))
        # stay=True (--stay): trained to stay, the run's hard loss is the window's wrong bits.
        stayed = dlca.train("image", target=heart, size=12, stay=True, **short)
        self.assertTrue(stayed.config["stay"])
        self.assertEqual(stayed.summary["final_hard_loss"], sum(stayed.summary["kept"]["wrong_bits"]))
        with self.assertRaisesRegex(dlca.ConfigError, "^stay: only a picture"):
            dlca.train("checkerboard_sync", epochs=1, stay=True, threads=1)
        # gif(): the GIF that training's gif= writes, byte for byte (a picture grows from the
        # same empty grid); from another start, another GIF.
        model = dlca.train("image", target=heart, size=16, colours="8colour",
                           gif=self.path("trained.gif"), **short)
        model.gif(self.path("again.gif"))
        with open(self.path("trained.gif"), "rb") as a, open(self.path("again.gif"), "rb") as b:
            trained = a.read()
            self.assertTrue(trained.startswith(b"GIF89a"))
            self.assertEqual(trained, b.read())
        model.gif(self.path("other.gif"), start=np.ones((16, 16), np.uint8))
        with open(self.path("other.gif"), "rb") as f:
            self.assertNotEqual(f.read(), trained)
        with self.assertRaisesRegex(ValueError, "^start: must be the model's grid, 16 x 16"):
            model.gif(self.path("bad.gif"), start=np.ones((8, 8), np.uint8))
        self.assertEqual(model.config["height"], 16)
        self.assertEqual(model.config["loss_channels"], [0, 1, 2])
        with self.assertRaisesRegex(ValueError, "^target: "):
            dlca.train("image", **short)
        with self.assertRaisesRegex(ValueError, "^colours: "):
            dlca.train("image", target=heart, colours="rgb", **short)
        # The choices made differently, as dlca train image --target's options make them.
        other = dlca.train("image", target=heart, size=8, threshold=0.5, channels=8,
                           seed_cell="center", boundary="periodic", **short)
        self.assertEqual((other.config["channels"], other.config["update_layers"][-1]), (8, 8))
        self.assertTrue(other.config["periodic"])
        self.assertEqual(other.task["seed_cell"], "center")
        self.assertEqual(other.task["source"], "heart.png, mono above 0.5")
        for bad, error, message in (
                (dict(channels=500), ValueError, "^channels: the colored G's architecture builds "
                                                 "for 4 to 113, got 500$"),
                (dict(colours="8colour", threshold=0.5), ValueError,
                 "^threshold: not used with 8colour"),
                (dict(threshold=float("nan")), ValueError, "^threshold: must be from 0 to 1"),
                (dict(seed_cell="middle"), ValueError, "^seed_cell: must be 'center' or 'none'"),
                (dict(boundary=0), TypeError, "^boundary: must be 'periodic' or 'zero'")):
            with self.assertRaisesRegex(error, message):
                dlca.train("image", target=heart, **bad, **short)
        with self.assertRaisesRegex(OSError, "missing.png"):
            dlca.train("image", target=self.path("missing.png"), **short)

    def test_robust_keeps_keywords_at_the_notebooks_values(self):
        short = dict(recipe="robust", starts=1, repair=False, epochs=2, steps=2, threads=1)
        filled = dlca.train("lizard", **short).config  # robust's epsilon, noise and sharpening
        self.assertAlmostEqual(filled["adam_eps"], 1e-16, delta=1e-20)
        self.assertAlmostEqual(filled["noise"], 0.1, places=6)
        given = dlca.train("lizard", adam_eps=1e-8, noise=0, **short).config
        self.assertAlmostEqual(given["adam_eps"], 1e-8, delta=1e-12)
        self.assertEqual(given["noise"], 0)
        self.assertEqual(given["sharpen_to"], 1)


class CircuitTest(Scratch):
    @classmethod
    def setUpClass(cls):
        cls._models = tempfile.TemporaryDirectory()
        cls.model_path = os.path.join(cls._models.name, "cb.json")
        dlca.train("checkerboard_sync", epochs=250, seed=23, threads=2, save=cls.model_path)
        cls.model = dlca.load(cls.model_path)

    @classmethod
    def tearDownClass(cls):
        cls._models.cleanup()

    def check_like_dlca_run(self, *mode, **run_args):
        program("dlca_run", "--model", self.model_path, "--size", 24, "--steps", 0, "--init",
                "random", "--seed", 3, "--png", "start.png", "--quiet", cwd=self.dir)
        program("dlca_run", "--model", self.model_path, "--size", 24, "--steps", 30, "--init",
                "start.png", *mode, "--png", "final.png", "--quiet", cwd=self.dir)
        start = dlca.read_cells(self.path("start.png"), 24, 24)
        expected = dlca.read_cells(self.path("final.png"), 24, 24)
        final = self.model.run(start, steps=30, **run_args)
        self.assertEqual(final.shape, (24, 24, 8))
        self.assertEqual(final.dtype, np.uint8)
        np.testing.assert_array_equal(final[:, :, :1], expected)
        return final

    def test_run_equals_dlca_run(self):
        final = self.check_like_dlca_run()
        # A solved checkerboard grows its pattern on any grid.
        y, x = np.mgrid[0:24, 0:24]
        np.testing.assert_array_equal(final[:, :, 0], (y // 2 + x // 2) % 2)

    def test_show_and_notebook_view(self):
        # show(): the grid after the trained steps from random cells, channel 0 in white; the
        # class's solved checkerboard grown on its own 16x16 grid.
        image = self.model.show(seed=4)
        self.assertEqual((image.shape, image.dtype), ((16, 16, 3), np.uint8))
        y, x = np.mgrid[0:16, 0:16]
        np.testing.assert_array_equal(image[:, :, 0] // 255, (y // 2 + x // 2) % 2)
        np.testing.assert_array_equal(image[:, :, 0], image[:, :, 2])
        start = np.zeros((16, 16, 8), np.uint8)
        self.assertEqual(self.model.show(steps=0, start=start).max(), 0)
        # Jupyter shows the live page inline: one iframe whose srcdoc is the escaped page.
        view = self.model._repr_html_()
        self.assertTrue(view.startswith('<iframe srcdoc="&lt;!DOCTYPE html&gt;'), view[:60])
        self.assertEqual(view.count("<"), 2)  # the iframe's own tags only: the page is escaped

    def test_async_run_equals_dlca_run(self):
        self.check_like_dlca_run("--async", "--seed", 5, **{"async": True, "seed": 5})

    def test_exports(self):
        self.model.export(self.path("cb.v"))
        self.model.export(self.path("cb.c"), name="checkerboard")
        self.model.export(self.path("cb.json"))
        self.model.export(self.path("cb.html"))
        with open(self.path("cb.html")) as page:
            self.assertIn('<script type="application/json" id="dlca-data">', page.read())
        with open(self.path("cb.v")) as f:
            self.assertIn("module ", f.read())
        with open(self.path("cb.c")) as f:
            self.assertIn("checkerboard", f.read())
        with open(self.path("cb.json")) as f:
            devices = json.load(f)["devices"]  # stock DigitalJS's types, as dlca export's default
        paper_types = {"AAndNotB", "NotAAndB", "AOrNotB", "NotAOrB", "True", "False"}
        self.assertTrue(devices)
        self.assertFalse(paper_types & {device["type"] for device in devices.values()})
        # A model loaded from a file never overwrites that file with an export.
        self.model.save(self.path("model.json"))
        loaded = dlca.load(self.path("model.json"))
        self.assertEqual(loaded.source_path, os.path.abspath(self.path("model.json")))
        with self.assertRaisesRegex(ValueError, "is the file this model was loaded from"):
            loaded.export(self.path("model.json"))
        self.assertTrue(dlca.load(self.path("model.json")).is_checkpoint)


class ErrorTest(Scratch):
    def test_bad_input_raises_the_programs_message(self):
        with self.assertRaisesRegex(OSError, "'nothing_here': no experiment of that name"):
            dlca.train("nothing_here")
        with self.assertRaisesRegex(ValueError, "batch: must be a positive integer, got 0"):
            dlca.train("checkerboard_sync", batch=0)
        with self.assertRaisesRegex(ValueError, "frobnicate: not a training option"):
            dlca.train("checkerboard_sync", frobnicate=1)
        for rate in (0.3, 0.6):  # (0.6: the notebook's, which every file carries)
            with self.assertRaisesRegex(ValueError, "^fire_rate: has no effect without async"):
                dlca.train("checkerboard_sync", epochs=1, fire_rate=rate)
        with self.assertRaisesRegex(ValueError, "^channels: the update layers are sized for the "
                                                "experiment's channels .*, which scales them$"):
            dlca.train("lizard", epochs=1, channels=16)
        with self.assertRaisesRegex(ValueError, "game_of_life.json: steps: game_of_life learns one step"):
            dlca.train("game_of_life", epochs=1, steps=3)
        with self.assertRaisesRegex(ValueError, "recipe: must be"):
            dlca.train("checkerboard_sync", recipe="fast")
        with self.assertRaisesRegex(ValueError, "backend: must be one of"):
            dlca.train("checkerboard_sync", backend="tpu")
        with self.assertRaisesRegex(TypeError, "threads: must be an integer, got 1.5"):
            dlca.train("checkerboard_sync", threads=1.5)
        with self.assertRaisesRegex(ValueError, "threads: must be a non-negative integer, got -1"):
            dlca.train("checkerboard_sync", threads=-1)
        with self.assertRaisesRegex(TypeError, "save: must be a path or text, got None"):
            dlca.train("checkerboard_sync", save=None)
        # A checkpoint_every with no such epoch before the last changed nothing and was taken.
        with self.assertRaisesRegex(ValueError, "^checkpoint_every=100: has no effect with "
                                    "epochs=5 \\(no checkpoint falls before the last epoch"):
            dlca.train("checkerboard_sync", epochs=5, checkpoint_every=100,
                       save=self.path("unused.json"))
        self.assertFalse(os.path.exists(self.path("unused.json")))
        with self.assertRaisesRegex(ValueError, "^checkpoint_every: needs save to write to"):
            dlca.train("checkerboard_sync", epochs=5, checkpoint_every=2)
        with self.assertRaisesRegex(OSError, "^resume='[^']*none.json': cannot open"):
            dlca.train("checkerboard_sync", epochs=5, resume=self.path("none.json"))
        with self.assertRaisesRegex(OSError, "missing.json: cannot open"):
            dlca.load(self.path("missing.json"))
        with open(self.path("bad.json"), "w") as f:
            f.write("{not json")
        with self.assertRaisesRegex(OSError, "bad.json: malformed JSON"):
            dlca.train(self.path("bad.json"))
        with self.assertRaisesRegex(ValueError, "config: missing"):
            dlca.train({"task": {"kind": "checkerboard"}})
        lizard = json.loads(dlca.experiment("lizard").config_json())
        with self.assertRaisesRegex(OSError, "^task.image: .*nope.png: cannot open"):
            dlca.train({"config": lizard, "task": {"kind": "image", "image": "nope.png"}}, epochs=1)
        # JSON has no NaN or infinity: refused in Python, naming the key.
        with self.assertRaisesRegex(ValueError, "^lr: must be a finite number, got nan$"):
            dlca.train("checkerboard_sync", lr=float("nan"))
        with self.assertRaisesRegex(ValueError, "^noise: must be a finite number, got inf$"):
            dlca.train("checkerboard_sync", noise=float("inf"))
        with self.assertRaisesRegex(ValueError, "^lr: must be a finite number, got nan$"):
            dlca.experiment({"config": {"lr": float("nan")}})
        deep = 0.5
        for _ in range(70):
            deep = [deep]
        with self.assertRaisesRegex(dlca.ConfigError, "^config: nested deeper than 64 levels"):
            dlca.train("checkerboard_sync", epochs=1, weight_decay=deep)
        # Far deeper: refused the same way, not a RecursionError from checking it.
        for _ in range(5000):
            deep = [deep]
        with self.assertRaisesRegex(dlca.ConfigError, "^config: nested deeper than 64 levels$"):
            dlca.train("checkerboard_sync", epochs=1, loss_channels=deep)
        with self.assertRaisesRegex(dlca.ConfigError, "^experiment: nested deeper than 64 levels$"):
            dlca.experiment({"config": {"lr": deep}})

    def test_divergence_raises_and_keeps_the_log(self):
        log = self.path("diverged.csv")
        with self.assertRaisesRegex(dlca.TrainingDiverged,
                                    "^epoch [0-9]+: .*training diverged .*has the epochs before it$"):
            dlca.train("checkerboard_sync", epochs=20, steps=2, lr=3e38, weight_decay=0, log=log)
        self.assertTrue(issubclass(dlca.TrainingDiverged, RuntimeError))
        with open(log) as f:
            self.assertEqual(f.readline(), "epoch,soft_loss,hard_loss,active_gates,ms\n")
            self.assertTrue(f.readline().startswith("0,"))

    def test_model_arrays_are_read_only_and_run_arguments_checked(self):
        model = dlca.train("checkerboard_sync", epochs=2, steps=2)
        for array in (model.logits, model.probabilities, model.ops, model.history["hard_loss"],
                      model.wiring["update"][0]):
            with self.assertRaisesRegex(ValueError, "read-only"):
                array[0] = 1
        start = np.zeros((4, 4, 1), np.uint8)
        with self.assertRaisesRegex(TypeError, "^run: give async_ or async, not both$"):
            model.run(start, 1, async_=False, **{"async": True})
        with self.assertRaisesRegex(ValueError, "^start: at most 65536 cells a side, got 70000$"):
            model.run(np.broadcast_to(np.uint8(1), (70000, 20000, 1)), 1)
        with self.assertRaisesRegex(ValueError, "^name: names the C function or Verilog module"):
            model.export(self.path("x.html"), name="abc")
        with self.assertRaisesRegex(ValueError, "^name: names the C function or Verilog module"):
            model.export(self.path("x.json"), name="abc")

    def test_nul_bytes_are_refused_not_cut(self):
        with open(self.path("results"), "w") as f:
            f.write("precious")
        model = dlca.train("checkerboard_sync", epochs=1, steps=2)
        with self.assertRaisesRegex(ValueError, r"^path: contains a NUL byte"):
            model.save(self.path("results") + "\0.json")
        with self.assertRaisesRegex(ValueError, r"^save: contains a NUL byte"):
            dlca.train("checkerboard_sync", epochs=1, save=self.path("results") + "\0.json")
        with self.assertRaisesRegex(ValueError, r"^random_streams: contains a NUL byte"):
            dlca.train("checkerboard_sync", epochs=1, random_streams="jax\0x")
        with self.assertRaisesRegex(dlca.FileError, r"checkerboard_sync\\0junk: a file name cannot"):
            dlca.train("checkerboard_sync\0junk", epochs=1)
        with self.assertRaisesRegex(ValueError, r"^path: contains a NUL byte"):
            dlca.load(self.path("a") + "\0b")
        with open(self.path("results")) as f:
            self.assertEqual(f.read(), "precious")
        with self.assertRaisesRegex(ValueError, r"^path: not valid UTF-8"):
            dlca.load(os.fsdecode(b"\xff.json"))
        with self.assertRaisesRegex(TypeError, r"^callback: must be a function"):
            dlca.train("checkerboard_sync", epochs=1, callback=5)
        with self.assertRaisesRegex(OSError, r"lizard.png: a PNG image, not JSON text"):
            dlca.load(os.path.join(dlca.data_dir(), "lizard.png"))

    def test_an_output_that_fails_at_the_end_keeps_the_model(self):
        os.makedirs(self.path("sub"))
        remove = lambda epoch, *rest: (epoch == 3 and os.rmdir(self.path("sub"))) or True
        with self.assertRaisesRegex(dlca.FileError, r"sub/x\.json: .*the trained model is") as raised:
            dlca.train("checkerboard_sync", epochs=5, steps=2, save=self.path("sub/x.json"),
                       callback=remove)
        self.assertEqual(len(raised.exception.model.history["hard_loss"]), 5)

    def test_resume_and_outputs_checked_as_the_programs_do(self):
        dlca.train("checkerboard_sync", epochs=2, steps=2, save=self.path("m.json"))
        with self.assertRaisesRegex(dlca.ConfigError,
                                    "^resume='[^']*m.json': .*the checkpoint's lr is 0.05 but this run's is 0.1"):
            dlca.train("checkerboard_sync", epochs=4, steps=2, lr=0.1, resume=self.path("m.json"))
        with self.assertRaisesRegex(ValueError, "the checkpoint's height is 16 but this run's is 8"):
            dlca.train("checkerboard_sync", epochs=4, steps=2, height=8, width=8,
                       resume=self.path("m.json"))
        with self.assertRaisesRegex(ValueError, "^device: the CPU backend has no devices"):
            dlca.train("checkerboard_sync", epochs=1, steps=2, device=0)
        # Library errors name keywords as Python gives them, not the programs' options.
        with self.assertRaisesRegex(Exception, "^backend='vulkan': (?!.*--)"):
            dlca.train("checkerboard_sync", epochs=1, steps=2, backend="vulkan", device=99)
        with self.assertRaisesRegex(ValueError, "the checkpoint is at epoch 2, past epoch 1, where this run ends \\(epochs, else"):
            dlca.train("checkerboard_sync", epochs=1, steps=2, resume=self.path("m.json"))
        with self.assertRaisesRegex(Exception, "^log='[^']*m.json': is the input resume='[^']*m.json'"):
            dlca.train("checkerboard_sync", epochs=3, steps=2, resume=self.path("m.json"),
                       log=self.path("m.json"))
        with open(os.path.join(dlca.data_dir(), "checkerboard_sync.json")) as f:
            text = f.read()
        with open(self.path("exp.json"), "w") as f:
            f.write(text)
        with self.assertRaisesRegex(Exception, "^save='[^']*exp.json': is the input the experiment "):
            dlca.train(self.path("exp.json"), epochs=1, steps=2, save=self.path("exp.json"))
        with open(self.path("exp.json")) as f:
            self.assertEqual(f.read(), text)

    def test_outputs_stay_where_the_run_began(self):
        # A callback that changes directory split a run's outputs between two folders.
        first, second = self.path("a"), self.path("b")
        os.mkdir(first)
        os.mkdir(second)
        here = os.getcwd()
        try:
            os.chdir(first)
            dlca.train("checkerboard_sync", epochs=3, steps=1, save="out.json", log="out.csv",
                       callback=lambda epoch, *rest: os.chdir(second) if epoch == 1 else None)
        finally:
            os.chdir(here)
        self.assertEqual(sorted(os.listdir(first)), ["out.csv", "out.json", "out.svg"])
        self.assertEqual(os.listdir(second), [])

    def test_bad_grid_raises(self):
        model = dlca.train("checkerboard_sync", epochs=1, steps=1)
        with self.assertRaisesRegex(ValueError, "start: must be H x W x C"):
            model.run(np.zeros((4, 4, 9), np.uint8), steps=1)
        with self.assertRaisesRegex(ValueError, "steps: must be >= 0"):
            model.run(np.zeros((4, 4, 1), np.uint8), steps=-1)
        with self.assertRaisesRegex(ValueError, "fire_rate: must be in"):
            model.run(np.zeros((4, 4, 1), np.uint8), steps=1, async_=True, fire_rate=float("nan"))
        with self.assertRaisesRegex(ValueError, "^fire_rate: has no effect without async_"):
            model.run(np.zeros((4, 4, 1), np.uint8), steps=1, fire_rate=0.5)
        with self.assertRaisesRegex(ValueError, "^seed: has no effect without async_"):
            model.run(np.zeros((4, 4, 1), np.uint8), steps=1, seed=5)
        with self.assertRaisesRegex(ValueError, "^start: contains NaN"):
            model.run(np.full((4, 4, 1), np.nan), steps=0)
        with self.assertRaisesRegex(ValueError, "^path: an empty path names no file$"):
            model.save("")
        with self.assertRaisesRegex(ValueError, "is a directory; give a file name$"):
            model.export(self.path(""))
        with self.assertRaisesRegex(ValueError, "^save: an empty path"):
            dlca.train("checkerboard_sync", epochs=1, steps=1, save="")
        with self.assertRaisesRegex(ValueError, "format"):
            model.export(self.path("x.txt"))
        # One line naming the argument, never pybind11's list of signatures.
        for call, kind, message in [
                (lambda: model.export(5), TypeError, "^path: must be a path"),
                (lambda: dlca.load(3), TypeError, "^path: must be a path"),
                (lambda: dlca.read_cells(5, 4, 4), TypeError, "^path: must be a path"),
                (lambda: dlca.read_cells("x.png", 2 ** 40, 4), ValueError, "^height: must be between"),
                (lambda: dlca.read_cells("x.png", 4, 4.5), TypeError, "^width: must be an integer"),
                (lambda: dlca.read_cells("x.png", 4, 4, colours="rgb"), ValueError, "^colours: must be"),
                (lambda: dlca.read_cells("x.png", 4, 4, threshold=float("nan")), ValueError,
                 "^threshold: must be between 0 and 1"),
                (lambda: model.run(np.array(1), 1), ValueError,
                 "^start: must be an array H x W or H x W x C, got 0 dimensions$"),
                (lambda: model.run(np.zeros((4, 4), np.uint8), 1, async_=True, fire_rate=True),
                 TypeError, "^fire_rate: must be a number"),
                (lambda: model.export(self.path("x.c"), format=3), TypeError, "^format: must be"),
                (lambda: model.export(self.path("x.c"), name=None), TypeError, "^name: must be text"),
                (lambda: dlca.train("checkerboard_sync", epochs=1, verbose=True, print_every=True), TypeError,
                 "^print_every: must be an integer"),
                (lambda: dlca.experiment("checkerboard_sync").with_config("not json"), ValueError,
                 "^config: not valid JSON"),
                # What JSON cannot carry names its key (a complex number was "1j (complex) is
                # not a JSON value"; a seed of 2**64 was shown as a float).
                (lambda: dlca.train("checkerboard_sync", epochs=1, lr=1j), TypeError,
                 r"^lr: 1j \(complex\) is not a JSON value$"),
                (lambda: dlca.experiment({"config": {"lr": 1j}}), TypeError, "^lr: 1j"),
                # pybind's own several-line "incompatible function arguments" before.
                (lambda: model.export_text(5), TypeError, "^format: must be c, verilog"),
                (lambda: model.export_text("c", 5), TypeError, "^name: must be text"),
                (lambda: dlca.experiment("checkerboard_sync").with_config(None), TypeError,
                 r"^with_config: must be JSON text \(str\), got None$"),
                (lambda: dlca.experiment_names(1), TypeError, "takes 0 positional arguments"),
                (lambda: dlca.train("checkerboard_sync", epochs=1, backend="vulkan", tile_cells=8),
                 ValueError, "^tile_cells: a CPU backend option, with no effect with "
                 "backend='vulkan'$"),
                (lambda: dlca.train("checkerboard_sync", epochs=1, seed=2**64), dlca.ConfigError,
                 r"^seed: 18446744073709551616 is out of range \(integers are from -2\*\*63 to "
                 r"2\*\*64-1\)$")]:
            with self.assertRaisesRegex(kind, message):
                call()
        with self.assertRaisesRegex(TypeError, "steps: must be an integer"):
            model.run(np.zeros((4, 4, 1), np.uint8), steps=2.7)
        # A path object and a numpy integer are taken where a str and an int are.
        model.save(pathlib.Path(self.path("m.json")))
        self.assertEqual(dlca.load(self.path("m.json")).ops.tolist(), model.ops.tolist())
        with contextlib.redirect_stdout(io.StringIO()):
            dlca.train("checkerboard_sync", epochs=1, steps=1, verbose=True, print_every=np.int64(5))
        with self.assertRaisesRegex(ValueError, "^print_every: has no effect without verbose=True$"):
            dlca.train("checkerboard_sync", epochs=1, steps=1, print_every=5)
        # Reloading the package does not wrap its wrappers again (save recursed).
        importlib.reload(dlca)
        model.save(self.path("again.json"))
        model.run(np.zeros((4, 4, 1), np.uint8), steps=1)
        # Any non-zero value is a live cell, whatever the dtype.
        ones = model.run(np.full((4, 4, 1), 256, np.int16), steps=0)
        np.testing.assert_array_equal(ones[:, :, 0], np.ones((4, 4), np.uint8))
        halves = model.run(np.full((4, 4, 1), 0.5), steps=0)
        np.testing.assert_array_equal(halves[:, :, 0], np.ones((4, 4), np.uint8))


if __name__ == "__main__":
    unittest.main()
