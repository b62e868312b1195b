// How the library names a user's option in its messages, in the terms of the front end in use:
// the command line's option in the programs ("--tile-cells", "--resume m.json"), the keyword in
// the Python module ("tile_cells", "resume='m.json'"), a --set in dlca sweep ("--set starts=auto",
// but "--epochs 5": the sweep's own options). Errors thrown anywhere below a front end word their
// options through these, so each front end reads its own names; the Python module chooses its
// wording once when it is imported, dlca sweep when it starts, the other programs keep the
// default.
#pragma once

#include <string>
#include <string_view>

namespace dlca {

enum class OptionWording { kCommandLine, kKeywords, kSweepSettings };

void set_option_wording(OptionWording wording);
OptionWording option_wording();

// `key` as a setting or run option is named ("resume", "tile_cells", "max_memory"): "--resume",
// "--tile-cells" on the command line (the option of the settings table where it has one), the key
// itself as a keyword.
std::string option_name(std::string_view key);
// The option given with a value: "--resume m.json" / "resume='m.json'"; a number is not quoted
// ("--seed 4" / "seed=4").
std::string option_with_value(std::string_view key, std::string_view value);

}  // namespace dlca
