// bench_hard_sim: microseconds per synchronous step of the published Game of Life circuit
// (DigitalJS import) on the bit-sliced hard simulator, 1 and 2 threads, 512x512 and 1024x1024 tori.
// Usage: bench_hard_sim PATH/TO/gol_circuit.json
#include <chrono>

#include <tbb/global_control.h>
#include <cstdio>
#include "dlca/circuits/bit_grid.hpp"
#include "dlca/circuits/digitaljs.hpp"
#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/random.hpp"
using namespace dlca;
int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bench_hard_sim PATH/TO/gol_circuit.json\n");
    return 2;
  }
  const CircuitProgram gol = to_program(load_digitaljs(argv[1]));
  for (int threads : {1, 2})
    for (int size : {512, 1024}) {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
      const auto geo = make_grid_geometry(1, size, size, 1, true);
      BitGrid sim(gol.program, gol.ops, geo);
      std::vector<uint8_t> s(size * size);
      for (size_t i = 0; i < s.size(); ++i) s[i] = uniform01(5, i) < 0.5f;
      sim.set_state(s.data());
      sim.step();
      auto t0 = std::chrono::steady_clock::now();
      int steps = 20;
      for (int i = 0; i < steps; ++i) sim.step();
      double us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
          steps;
      auto st = sim.state();
      long alive = 0;
      for (auto v : st) alive += v;
      printf("GoL circuit %dx%d, %d thread(s): %.1f us/step, alive %ld\n", size, size, threads, us,
             alive);
    }
}
