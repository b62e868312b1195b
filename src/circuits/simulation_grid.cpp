// The CPU implementation of SimulationGrid (BitGrid behind the common interface), and the
// whole-plane helpers every grid shares.
#include "dlca/circuits/simulation_grid.hpp"

#include <algorithm>

#include "dlca/circuits/bit_grid.hpp"
#include "dlca/circuits/bit_rows.hpp"
#include "dlca/core/random.hpp"

namespace dlca {

uint64_t async_step_key(uint64_t seed, int step) { return derive_key(seed, 1000 + uint64_t(step)); }

void SimulationGrid::set_planes(const std::vector<uint8_t>& planes) {
  const size_t cells = size_t(height()) * width();
  set_state_rows(int(std::min(planes.size() / cells, size_t(channels()))),
                 [&](int c, int y, uint8_t* row) {
                   std::copy_n(&planes[c * cells + size_t(y) * width()], width(), row);
                 });
}

void SimulationGrid::set_targets(const std::vector<uint8_t>& planes) {
  const size_t cells = size_t(height()) * width();
  set_target_rows(int(std::min(planes.size() / cells, size_t(channels()))),
                  [&](int c, int y, uint8_t* row) {
                    std::copy_n(&planes[c * cells + size_t(y) * width()], width(), row);
                  });
}

std::vector<uint8_t> SimulationGrid::planes() {
  const size_t cells = size_t(height()) * width();
  std::vector<uint8_t> out(size_t(channels()) * cells);
  read_state_rows(channels(), [&](int c, int y, const uint8_t* row) {
    std::copy_n(row, width(), &out[c * cells + size_t(y) * width()]);
  });
  return out;
}

namespace {

class CpuGrid : public SimulationGrid {
 public:
  CpuGrid(const Circuit& circuit, std::shared_ptr<const CircuitKernel> kernel, int height,
          int width, bool periodic)
      : kernel_name_(kernel ? kernel->name() : ""),
        grid_(circuit, std::move(kernel), height, width, periodic),
        row_(size_t(width)) {}
  std::string name() const override { return "cpu, " + kernel_name_ + " kernel"; }
  int channels() const override { return grid_.channels(); }
  int height() const override { return grid_.height(); }
  int width() const override { return grid_.width(); }
  void set_state_rows(int k, const CellRowSource& rows) override {
    for (int c = 0; c < grid_.channels(); ++c)
      for (int y = 0; y < grid_.height(); ++y) {
        if (c < k)
          rows(c, y, row_.data());
        else
          std::fill(row_.begin(), row_.end(), 0);
        grid_.set_row(c, y, row_.data());
      }
  }
  void step() override { grid_.step(); }
  void step_async(double fire_rate, uint64_t key) override { grid_.step_async(fire_rate, key); }
  void step_masked(const uint8_t* fire_mask) override { grid_.step_masked(fire_mask); }
  void zero_rectangle(int y0, int x0, int rows, int columns) override {
    grid_.zero_rectangle(y0, x0, rows, columns);
  }
  uint64_t count(int channel) override { return grid_.count(channel); }
  void set_target_rows(int k, const CellRowSource& rows) override {
    targets_.assign(size_t(std::min(k, grid_.channels())), {});
    for (size_t c = 0; c < targets_.size(); ++c) {
      targets_[c].assign(grid_.plane_words(), 0);
      for (int y = 0; y < grid_.height(); ++y) {
        rows(int(c), y, row_.data());
        pack_bit_row(row_.data(), grid_.width(), &targets_[c][size_t(y) * grid_.row_words()]);
      }
    }
  }
  uint64_t error() override {
    uint64_t e = 0;
    for (size_t c = 0; c < targets_.size(); ++c) e += grid_.differences(int(c), targets_[c]);
    return e;
  }
  void read_state_rows(int k, const CellRowSink& rows) override {
    for (int c = 0; c < std::min(k, grid_.channels()); ++c)
      for (int y = 0; y < grid_.height(); ++y) {
        grid_.get_row(c, y, row_.data());
        rows(c, y, row_.data());
      }
  }

 private:
  std::string kernel_name_;
  BitGrid grid_;
  std::vector<std::vector<uint64_t>> targets_;
  std::vector<uint8_t> row_;  // one row of bytes, for the callbacks
};

}  // namespace

std::unique_ptr<SimulationGrid> make_cpu_grid(const Circuit& circuit,
                                              std::shared_ptr<const CircuitKernel> kernel,
                                              int height, int width, bool periodic) {
  return std::make_unique<CpuGrid>(circuit, std::move(kernel), height, width, periodic);
}

}  // namespace dlca
