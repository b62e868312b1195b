// Files, signals and memory: outputs written in place when they are devices or pipes, the shared
// output check, memory sizes and estimates, and the limit on training steps that keeps dlca_eval's
// 4 x steps in range (its refusal of a 4 x grid past 8192 cells is a command-line test,
// tests/hostile/files.cmake).
#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dlca/core/memory_budget.hpp"
#include "dlca/core/trained_task.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/output_paths.hpp"
#include "dlca/train/checkerboard.hpp"
#include "dlca/train/model_file.hpp"
#include "scratch_dir.hpp"

using namespace dlca;
namespace fs = std::filesystem;

namespace {

std::string refusal(const std::vector<NamedPath>& in, const std::vector<NamedPath>& out) {
  try {
    check_output_paths(in, out, {{"--resume", "--save"}});
  } catch (const FileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a write to a pipe goes into the pipe and leaves no temporary") {
  const testing::ScratchDir scratch;
  const fs::path dir = scratch.path;
  const std::string fifo = (dir / "p").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  FILE* reader = ::popen(("cat " + fifo).c_str(), "r");
  REQUIRE(reader);
  write_file_atomically(fifo, "through the pipe\n");
  char line[64] = {};
  REQUIRE(std::fgets(line, sizeof line, reader));
  ::pclose(reader);
  CHECK(std::string(line) == "through the pipe\n");
  struct stat st {};
  REQUIRE(::stat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}

TEST_CASE("an OutputFile not committed leaves nothing, and reading a directory says so") {
  const testing::ScratchDir scratch;
  const fs::path dir = scratch.path;
  {
    OutputFile out((dir / "x.json").string());
    out.write("half");
  }
  CHECK(fs::is_empty(dir));
  CHECK_THROWS_WITH_AS(read_file(dir.string()), (dir.string() + ": is a directory").c_str(),
                       FileError);
}

TEST_CASE("an OutputGroup replaces all its files or none") {
  const testing::ScratchDir scratch;
  const fs::path dir = scratch.path;
  write_file_atomically((dir / "a.csv").string(), "old");
  {
    OutputGroup group;
    group.add((dir / "a.csv").string(), "new");
    group.add((dir / "b.json").string(), "new");
    fs::create_directory(dir / "b.json");  // the target became a directory while writing
    CHECK_THROWS_WITH_AS(group.commit(), ((dir / "b.json").string() + ": is a directory").c_str(),
                         FileError);
  }
  CHECK(read_file((dir / "a.csv").string()) == "old");
  fs::remove(dir / "b.json");
  OutputGroup group;
  group.add((dir / "a.csv").string(), "new");
  group.add((dir / "b.json").string(), "new");
  group.commit();
  CHECK(read_file((dir / "a.csv").string()) == "new");
  CHECK(read_file((dir / "b.json").string()) == "new");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 2);  // no temps
}

TEST_CASE("threads of one process writing the same file never share a temporary") {
  const testing::ScratchDir scratch;
  const std::string file = scratch / "r.csv";
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t)
    writers.emplace_back([&, t] {
      const std::string text(4096, char('a' + t));
      for (int i = 0; i < 200; ++i) try {
          write_file_atomically(file, text);
        } catch (const FileError&) {
          ++failures;
        }
    });
  for (std::thread& w : writers) w.join();
  CHECK(failures == 0);
  const std::string last = read_file(file);  // one writer's whole text, not a mix
  CHECK(last.size() == 4096);
  CHECK(last == std::string(4096, last[0]));
  CHECK(std::distance(fs::directory_iterator(scratch.path), fs::directory_iterator()) == 1);
}

TEST_CASE("a file name with a NUL byte is refused, not cut short") {
  const testing::ScratchDir scratch;
  const std::string precious = scratch / "results";
  write_file_atomically(precious, "precious");
  const std::string cut = precious + std::string(1, '\0') + ".json";
  const std::string said = precious + "\\0.json: a file name cannot contain a NUL byte";
  CHECK_THROWS_WITH_AS(write_file_atomically(cut, "model"), said.c_str(), FileError);
  CHECK_THROWS_WITH_AS(read_file(cut), said.c_str(), FileError);
  CHECK_THROWS_WITH_AS(check_writable(cut), said.c_str(), FileError);
  CHECK(refusal({}, {{"--save", cut}}) == "--save " + said);
  CHECK(read_file(precious) == "precious");
}

TEST_CASE("an output that is a symbolic link is written through it, made if it is not there") {
  const testing::ScratchDir scratch;
  fs::create_directory(scratch.path / "store");
  fs::create_symlink("store/new.json", scratch.path / "d.json");  // dangling: relative target
  write_file_atomically(scratch / "d.json", "made");
  CHECK(fs::is_symlink(scratch.path / "d.json"));
  CHECK(read_file(scratch / "store/new.json") == "made");
  write_file_atomically(scratch / "d.json", "replaced");
  CHECK(fs::is_symlink(scratch.path / "d.json"));
  CHECK(read_file(scratch / "store/new.json") == "replaced");
  fs::create_symlink("loop", scratch.path / "loop");  // a link to itself: refused by the system
  CHECK_THROWS_AS(write_file_atomically(scratch / "loop", "x"), FileError);
}

TEST_CASE("check_output_paths compares files, not spellings") {
  const testing::ScratchDir scratch;
  const fs::path dir = scratch.path;
  const std::string a = (dir / "a.json").string(), b = (dir / "sub" / ".." / "a.json").string();
  fs::create_directories(dir / "sub");
  write_file_atomically(a, "{}");
  CHECK(refusal({{"--model", a}}, {{"--png", b}}) ==
        "--png " + b + ": is the input --model " + a + "; write it somewhere else");
  CHECK(refusal({{"--resume", a}}, {{"--save", b}}).empty());
  CHECK(refusal({}, {{"--log", (dir / "n.csv").string()}, {"--summary", (dir / "n.csv").string()}})
            .find("is also the output --log") != std::string::npos);
  CHECK(refusal({}, {{"--log", "/dev/null"}, {"--summary", "/dev/null"}}).empty());
  CHECK(refusal({}, {{"--save", dir.string()}}) == "--save " + dir.string() + ": is a directory");
  CHECK(
      refusal({}, {{"--save", (dir / "none" / "m.json").string()}}).find(": cannot write there") !=
      std::string::npos);
}

TEST_CASE("memory sizes and the training estimate") {
  CHECK(parse_memory_size("4G") == uint64_t(4) << 30);
  CHECK(parse_memory_size("512MiB") == uint64_t(512) << 20);
  CHECK(parse_memory_size("1000") == 1000);
  CHECK_THROWS_AS(parse_memory_size("nan"), std::invalid_argument);
  CHECK_THROWS_AS(parse_memory_size("-1G"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_memory_size("0"), "'0' is not a memory size: must be at least 1 byte",
                       std::invalid_argument);
  CHECK_THROWS_AS(parse_memory_size("1e30T"), std::invalid_argument);
  // Only plain decimals: strtod would also take these.
  for (const char* text : {"0x100", "1e3K", " 1G", "1G ", "+1G", "1.G", ".5G", "1Kb", "inf"})
    CHECK_THROWS_WITH_AS(
        parse_memory_size(text),
        (std::string("'") + text + "' is not a memory size (like 512M, 4G or 1T)").c_str(),
        std::invalid_argument);
  CHECK(parse_memory_size("1.5K") == 1536);
  CHECK_THROWS_WITH_AS(parse_memory_size("1.5"),
                       "'1.5' is not a memory size: bytes are whole numbers",
                       std::invalid_argument);
  CHECK(parse_memory_size("2KB") == 2048);
  CHECK(format_bytes(uint64_t(3) << 29) == "1.5 GiB");
  // The paper's checkerboard: a few MiB; an 8192^2 grid for 20 steps: tens of GiB.
  ExperimentConfig c = checkerboard_sync_config();
  CHECK(cpu_training_bytes(c, {}) < (uint64_t(64) << 20));
  c.height = c.width = 8192;
  c.batch = 1;
  CHECK(cpu_training_bytes(c, {}) > (uint64_t(20) << 30));
  CHECK_THROWS_WITH(check_memory(uint64_t(2) << 30, "this", uint64_t(1) << 30),
                    "this needs about 2.0 GiB of memory, more than --max-memory 1.0 GiB");
  // --tile-cells is clamped to the grid's cells, rounded to a SIMD row.
  CHECK(tile_cells_for(2000000000, 100, 512) == 512);
  CHECK(tile_cells_for(0, 100, 1) <= 64);
}

TEST_CASE("training steps are limited, so no 4 x steps of dlca_eval overflows") {
  ExperimentConfig c = checkerboard_sync_config();
  c.steps = 600000000;  // 4 x steps would overflow int
  CHECK_THROWS_WITH_AS(validate(c), "steps: at most 100000, got 600000000", ConfigError);
  c.steps = kMaxSteps;
  CHECK_NOTHROW(validate(c));
  static_assert(int64_t(4) * kMaxSteps < 1000000000, "dlca_eval's step limit");
}
