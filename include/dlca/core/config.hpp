// An experiment configuration (docs/MODEL.md §10): network shapes and wiring kinds, grid, rollout,
// batch, optimiser and loss settings. validate() rejects configurations that cannot work, naming
// the field.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace dlca {

// How a layer's two input wires per gate are chosen (docs/MODEL.md §4).
enum class Connection { kUnique, kRandom, kFirstKernel };

// Where wiring permutations and data come from: dlca's own streams (splitmix64), or JAX's
// threefry streams exactly as the notebook draws them (seed < 2^32).
enum class RandomStreams { kDlca, kJax };

const char* connection_name(Connection c);
Connection parse_connection(const std::string& name);  // throws ConfigError

// How to train (docs/training.md, "Training recipes"): `paper` is the notebook's recipe, bit for
// bit; `robust` (the default) adds multi-start (several candidate wirings trained side by side, the
// first that solves kept), stops as soon as the hard loss is 0, keeping the parameters that scored
// it, repairs the circuit of a run that ends unsolved, and picks gates and schedules by task.
enum class Recipe { kPaper, kRobust };
// The recipe of a configuration that names none: robust solves more seeds than paper on every
// experiment measured, in less time (RESULTS.md, "Training recipes").
inline constexpr Recipe kDefaultRecipe = Recipe::kRobust;

const char* recipe_name(Recipe r);
Recipe parse_recipe(const std::string& name);  // throws ConfigError
// `--starts auto`: how many candidates train at once under successive halving.
inline constexpr int kAutoStarts = 4;
// The most epochs of candidates a halving run's budget (or a checkpoint's count of them) may hold.
inline constexpr int64_t kMaxCandidateEpochs = 1'000'000'000'000;

// The values a recipe gives `starts`, `halving`, `stop_when_solved` and `repair` when they are not
// set explicitly; kRecipeKeys names them as experiment files do.
struct RecipeDefaults {
  int starts = 1;
  int stop_when_solved = 0;
  bool repair = false;
  bool halving = false;
};
// robust: candidates 4 at a time with successive halving (--starts auto), stop at the first epoch
// whose hard loss is 0 (its parameters are the ones kept), and repair the circuit when no
// candidate solved. Measured in results/log/training.md ("Training recipes", "Starts that stop
// early").
constexpr RecipeDefaults recipe_defaults(Recipe recipe) {
  if (recipe == Recipe::kRobust)
    return {.starts = kAutoStarts, .stop_when_solved = 1, .repair = true, .halving = true};
  return {};
}

inline constexpr const char* kRecipeKeys[] = {"starts", "stop_when_solved", "repair", "halving"};
// The rounds robust adds after the epochs of a target grown from a fixed start
// (with_recipe_schedule).
inline constexpr int kRobustRounds = 2;
// ... and after those of a picture trained to stay (--stay), whose window is harder to fit: the
// README's heart stays only in the fourth extra round (results/log/training.md, "Stay from the
// circuit's own growth").
inline constexpr int kRobustStayRounds = 4;

struct ExperimentConfig;
// Sets the configuration's recipe and the values it gives starts, halving, stop_when_solved and
// repair, and marks starts as no longer given (those given explicitly are set after it: a file's
// "starts" does not outlive a --recipe given on the command line, as with Python and sweeps).
void use_recipe(ExperimentConfig& config, Recipe recipe);

// How a gate's op is parametrised while training (docs/training.md, "Input-wise gates").
// kSoftmax: the notebook's 16 logits, one per op, mixed by their softmax. kInputWise: 4 angles, one
// per input pattern (a, b) = 00, 01, 10, 11 (Light DLGN's input-wise parametrisation): the soft
// gate outputs sum over the patterns of P(pattern) * (1 + sin w) / 2, the hard gate the truth table
// of the signs.
enum class GateKind { kSoftmax, kInputWise };

const char* gate_kind_name(GateKind g);
GateKind parse_gate_kind(const std::string& name);  // throws ConfigError
// The trained parameters of one gate: 16 logits, or 4 input-wise angles.
inline constexpr int parameters_per_gate(GateKind g) { return g == GateKind::kInputWise ? 4 : 16; }

// Thrown for an impossible configuration; what() starts with the offending field's name.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The most state channels (and perception kernels) a configuration or circuit may have.
inline constexpr int kMaxChannels = 1024;

// The most steps a training rollout may have (the paper's experiments use 1 to 50; every step's
// state is kept for the backward pass).
inline constexpr int kMaxSteps = 100000;

// The largest model file dlca reads back (a checkpoint holds 16 logits and two AdamW moments per
// gate, for every candidate of a multi-start run): configurations whose checkpoint would be larger
// are refused, so that no training writes a file it cannot resume.
inline constexpr uint64_t kMaxModelFileBytes = uint64_t(1) << 30;

// AdamW's epsilon in the notebook's optimiser (docs/MODEL.md §6).
inline constexpr float kNotebookAdamEps = 1e-8f;
// The share of cells that fire in an asynchronous step (the notebook's async checkerboard).
inline constexpr float kNotebookFireRate = 0.6f;
// The notebook's AdamW: decay rates of the two moments and decoupled weight decay (§6).
inline constexpr float kNotebookAdamBeta1 = 0.9f;
inline constexpr float kNotebookAdamBeta2 = 0.99f;
inline constexpr float kNotebookWeightDecay = 1e-2f;

// Which of the values `robust` fills in for targets grown from a fixed start (with_recipe_schedule)
// the user gave (on the command line, in an experiment file, with sweep --set or as a Python
// keyword): those are kept, even where they equal the notebook's (--adam-eps 1e-8, --noise 0).
// Not part of the configuration's JSON: config_from_json sets them for the keys it finds.
struct GivenOptions {
  bool adam_eps = false;
  bool schedule = false;  // any of noise, noise_start, noise_end, sharpen_to, sharpen_start, ...
  bool gates = false;
  bool starts = false;  // starts or halving (a count, or auto)
  bool rounds = false;
};

struct ExperimentConfig {
  std::string name = "custom";
  int channels = 1;                    // C: state bits per cell
  int kernels = 1;                     // K: perception kernels
  std::vector<int> perception_layers;  // e.g. {9, 8, 4, 2}: input width 9, then gate layers
  std::vector<Connection> perception_connections;  // one per gate layer
  std::vector<int> update_layers;                  // {n0, n1, ..., C}; n0 = C + K*C*S
  std::vector<Connection> update_connections;      // one per gate layer
  int height = 16;
  int width = 16;
  int steps = 1;   // CA steps per rollout; loss after the last
  int batch = 1;   // initial grids per epoch
  int epochs = 1;  // optimiser steps
  float learning_rate = 0.05f;
  // AdamW's epsilon, added to the root of the second moment (docs/MODEL.md §6): 1e-8 as in the
  // notebook. Smaller values let the tiny gradients of deep, long rollouts take whole steps
  // (docs/training.md, "AdamW's epsilon").
  float adam_eps = kNotebookAdamEps;
  // AdamW's moment decay rates, in [0, 1), and its decoupled weight decay on every logit, in
  // [0, 1]: the notebook's 0.9, 0.99 and 0.01 (docs/training.md, "AdamW's betas and weight decay").
  float adam_beta1 = kNotebookAdamBeta1;
  float adam_beta2 = kNotebookAdamBeta2;
  float weight_decay = kNotebookWeightDecay;
  bool periodic = false;  // toroidal wrap (true) or zero padding (false)
  bool async = false;     // asynchronous updates with fire_rate
  float fire_rate = kNotebookFireRate;
  std::vector<int> loss_channels = {0};
  // Grow and stay: the loss compares the last `loss_steps` states of a rollout with the target
  // (steps - loss_steps + 1 to steps), so that the picture grown by step T = steps - loss_steps + 1
  // has to stay until `steps`. 1: the last state only, the notebook's.
  int loss_steps = 1;
  // Grow and stay from the circuit's own growth (docs/training.md, "Grow and stay"): the odd epochs
  // start from the hard circuit's state at step k = 1 + (epoch / 2) mod T instead of the task's
  // start, so that their loss, T steps later, asks the grown picture to stay at step T + k (with
  // loss_steps L, the L states from T + k on); a run is solved only when its picture stays exact
  // from T to 2T. Synchronous image tasks only.
  bool stay = false;
  uint64_t seed = 23;
  RandomStreams random_streams = RandomStreams::kJax;
  // Training stops once the hard loss has been 0 for this many consecutive epochs (0: never). Like
  // `epochs` it only says how long to train: a checkpoint resumes with any value.
  int stop_when_solved = recipe_defaults(kDefaultRecipe).stop_when_solved;
  Recipe recipe = kDefaultRecipe;
  // Candidates trained side by side (multi-start); candidate k has its own wiring and data from
  // start_seed(seed, k), candidate 0 the run's own seed. 1: a plain run.
  int starts = recipe_defaults(kDefaultRecipe).starts;
  // Successive halving of the starts (--starts auto; docs/training.md, "Starts that stop early"):
  // a candidate stops after a quarter and after half of its epochs unless its soft loss there is
  // among the better half of every candidate's at that epoch so far, and a new start takes each
  // freed place while the budget lasts. `starts` is then how many train at once. false: every
  // start trains all its epochs.
  bool halving = recipe_defaults(kDefaultRecipe).halving;
  // A halving run's budget: epochs of candidates trained in all (0: starts x epochs), and wall
  // minutes (0: none). The run ends when one candidate solves or the budget is spent. Like `epochs`
  // they only say how long to train.
  int64_t budget_epochs = 0;
  float budget_minutes = 0.0f;
  // Forward-only sharpening (docs/MODEL.md §3.5, docs/training.md): from epoch
  // sharpen_start to sharpen_end the forward pass divides every gate's logits by a temperature that
  // falls geometrically from 1 to sharpen_to (and stays there), while the logit gradient is still
  // taken through the softmax of the undivided logits. sharpen_to 1: off, the notebook's recipe.
  float sharpen_to = 1.0f;
  int sharpen_start = 0;
  int sharpen_end = 0;
  // Gumbel noise on the soft pass's logits (docs/training.md, "Logit noise"): from epoch
  // noise_start, each epoch adds noise * g to every logit of the soft forward pass and its softmax
  // backward, g drawn from Gumbel(0, 1) by a counter-based stream keyed by seed and epoch; the hard
  // pass uses the clean logits, until epoch noise_end (0: to the end). 0: off.
  float noise = 0.0f;
  int noise_start = 0;
  int noise_end = 0;
  // Repeated noise and sharpening (docs/training.md, "Repeating the schedule"): with P above 0,
  // from the epoch S where the first of them begins plus P on, both are read at epoch
  // S + (epoch - S) mod P, so that the temperature rises back to 1 and the noise phase returns
  // every P epochs (the noise itself is still drawn for the real epoch). 0: once, the notebook's.
  int repeat_schedule = 0;
  // More rounds for a run still unsolved after `epochs` (docs/training.md, "More rounds"): it may
  // train `rounds` more rounds of the noise and sharpening, each repeat_schedule epochs long (0:
  // from the first of them to `epochs`), which then repeats from that start on; the stop when
  // solved ends it as soon as it solves; the repair is tried at `epochs`, before the rounds, and
  // after the last (last_epoch). Like `epochs` it only says how long to train. 0: none, the
  // notebook's.
  int rounds = 0;
  // Progressive hardening (docs/training.md, "Progressive hardening"): in `harden` stages spread
  // evenly from epoch harden_start to harden_end (0: the run's epochs), the most confident gates
  // still free are fixed to their hard op, so that 1/2, 3/4, 7/8, ... of all gates are fixed after
  // stage 1, 2, 3, ...: a fixed gate's soft pass uses its hard op and its parameters and AdamW
  // moments no longer change, while the free gates train on around them. 0: off.
  int harden = 0;
  int harden_start = 0;
  int harden_end = 0;
  // Gradient normalised per parameter tensor before AdamW (AdamWSettings::normalize_per_tensor,
  // docs/training.md "Gradient normalised per layer"): false, the notebook's.
  bool grad_norm = false;
  // Hard-error feedback (docs/training.md, "Hard-error feedback"): in an epoch whose forward pass
  // is sharpened (forward_temperature below 1), the gradient of the soft final state gets
  // hard_feedback * 2 (hard - target) added over the loss channels, hard being the hard circuit's
  // final state on the same inputs: the hard circuit's own errors carried back through the soft
  // circuit. 0: off, the notebook's.
  float hard_feedback = 0.0f;
  // Learning-rate decay (docs/training.md, "Learning-rate decay"): from epoch lr_decay_start to
  // lr_decay_end (0: the run's epochs) AdamW's learning rate falls along a half cosine from lr to
  // lr_decay_to, and stays there (also through rounds after the epochs). 0: off, the notebook's
  // constant lr.
  float lr_decay_to = 0.0f;
  int lr_decay_start = 0;
  int lr_decay_end = 0;
  // The gates' parametrisation (GateKind): the notebook's softmax over 16 logits, or input-wise.
  GateKind gates = GateKind::kSoftmax;
  // Greedy repair of the hard circuit when training ends unsolved (docs/training.md, "Circuit
  // repair"): kept only when it reaches hard loss 0. Like `epochs` it does not change training.
  bool repair = recipe_defaults(kDefaultRecipe).repair;
  GivenOptions given;  // see GivenOptions: not written to JSON

  // Bits each perception kernel emits per channel (the last perception layer's width).
  int perception_outputs() const { return perception_layers.back(); }
  int cells() const { return height * width; }
};

// The period the noise and sharpening repeat with: repeat_schedule, or for more rounds without it
// the epochs from the first of them to `epochs` (0: they do not repeat).
int64_t schedule_period(const ExperimentConfig& config);
// The epoch a run trains to at most: `epochs`, plus its rounds (rounds x schedule_period).
int64_t last_epoch(const ExperimentConfig& config);
// The rounds a run that trained `epochs_trained` epochs began after `epochs`: ceil((epochs_trained
// - epochs) / schedule_period), 0 when it stopped within `epochs` or has no rounds.
int64_t rounds_begun(const ExperimentConfig& config, int64_t epochs_trained);
// The most rounds a run may have after its epochs.
inline constexpr int kMaxRounds = 16;

// The epoch the noise and sharpening schedules are read at: `epoch` itself, or under
// schedule_period P from S + P on (S: the first epoch of the noise or sharpening that is on),
// S + (epoch - S) mod P.
int64_t schedule_epoch(const ExperimentConfig& config, int64_t epoch);
// The forward pass's temperature at an epoch under the sharpening schedule: exactly 1 before
// sharpen_start or when sharpening is off.
double forward_temperature(const ExperimentConfig& config, int64_t epoch);
// The scale of the logit noise at an epoch: 0 before noise_start, from noise_end on (when it is
// above 0) or when off.
float noise_scale(const ExperimentConfig& config, int64_t epoch);

// AdamW's learning rate at an epoch: exactly `learning_rate` before lr_decay_start or when the
// decay is off; lr_decay_to + (lr - lr_decay_to) (1 + cos(pi p)) / 2 at the share p of the way from
// lr_decay_start to its end (lr_decay_end, else epochs); lr_decay_to from that end on.
float learning_rate_at(const ExperimentConfig& config, int64_t epoch);

// The epochs where progressive hardening's stages begin (none when off): stage k (from 0) at
// harden_start + floor(k (end - harden_start) / harden), end = harden_end or else epochs.
std::vector<int64_t> hardening_stage_epochs(const ExperimentConfig& config);
// The share of all gates fixed by progressive hardening at the start of an epoch: 0 before the
// first stage or when off, 1 - 2^-k from stage k (counted from 1) on.
double hardened_share(const ExperimentConfig& config, int64_t epoch);
// Copies the per-epoch schedules (sharpening, noise, progressive hardening, learning-rate decay) of
// `from` into `to`.
void take_schedule(const ExperimentConfig& from, ExperimentConfig& to);
// The most stages progressive hardening may have.
inline constexpr int kMaxHardenStages = 16;

// robust's choices that depend on the task (docs/training.md, "Training recipes"). For a target
// grown from one fixed start (an image such as the colored G or the lizard), relative to the run's
// epochs E: AdamW's epsilon 1e-16 (when it is the notebook's), Gumbel logit noise of scale 0.1 from
// E/2 to 13E/15, and forward-only sharpening from 1 at E/2 to 0.05 at E; noise and sharpening only
// when the configuration has neither of its own; and with noise or sharpening (robust's or its
// own), softmax gates, the stop when solved and no halving, up to 2 more rounds of them for a run
// still unsolved after E, unless rounds were given. For any other task (checkerboards, Game of
// Life): input-wise gates, unless gates were given. A `paper` configuration comes back unchanged.
ExperimentConfig with_recipe_schedule(ExperimentConfig config, bool grown_from_fixed_start);

// Throws ConfigError("field: reason") for the first problem found.
void validate(const ExperimentConfig& config);
// Throws ConfigError unless every loss channel has a target plane: a task's target fills
// channels 0 .. planes-1, and a loss channel past them would be trained toward all zeros.
void require_target_planes(const ExperimentConfig& config, int planes);

// About how many bytes a checkpoint of this configuration takes (all its candidates), from the
// gate count; within a few percent of what dlca writes for trained models.
uint64_t checkpoint_bytes_estimate(const ExperimentConfig& config);

// A configuration in the paper's style: perception wiring first_kernel then unique, every update
// layer unique, `size` x `size` grid, fire rate 0.6, seed 23, the notebook's random streams.
ExperimentConfig paper_config(std::string name, int channels, int kernels,
                              std::vector<int> perception_layers, std::vector<int> update_layers,
                              int size, int steps, int batch, int epochs, float learning_rate,
                              bool periodic, std::vector<int> loss_channels = {0});
// n copies of width w, then the tail: the paper's way of writing layer lists ([264] + 10*[256] +
// ...).
std::vector<int> layers(int first, int copies, int width, std::vector<int> tail);

// The paper's synchronous checkerboard (docs/MODEL.md §10.1).
ExperimentConfig checkerboard_sync_config();
// The paper's asynchronously trained checkerboard (docs/MODEL.md §10.2): 14x14, 50 steps,
// fire rate 0.6.
ExperimentConfig checkerboard_async_config();

}  // namespace dlca
