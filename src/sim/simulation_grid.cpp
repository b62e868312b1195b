// The CPU implementation of SimulationGrid: BitGrid behind the common interface.
#include "dlca/simulation_grid.hpp"

#include "dlca/bit_grid.hpp"

namespace dlca {

namespace {

class CpuGrid : public SimulationGrid {
 public:
  CpuGrid(const Circuit& circuit, std::shared_ptr<const CircuitKernel> kernel, int height,
          int width, bool periodic)
      : kernel_name_(kernel ? kernel->name() : ""),
        grid_(circuit, std::move(kernel), height, width, periodic) {}
  std::string name() const override { return "cpu, " + kernel_name_ + " kernel"; }
  void set_planes(const std::vector<uint8_t>& planes) override {
    const size_t cells = size_t(grid_.height()) * grid_.width();
    const std::vector<uint8_t> zeros(cells, 0);
    for (int c = 0; c < grid_.channels(); ++c)
      grid_.set_plane(c, (c + 1) * cells <= planes.size() ? &planes[c * cells] : zeros.data());
  }
  void step() override { grid_.step(); }
  void step_async(double fire_rate, uint64_t key) override { grid_.step_async(fire_rate, key); }
  void zero_rectangle(int y0, int x0, int rows, int columns) override {
    grid_.zero_rectangle(y0, x0, rows, columns);
  }
  uint64_t count(int channel) override { return grid_.count(channel); }
  void set_targets(const std::vector<uint8_t>& planes) override {
    const size_t cells = size_t(grid_.height()) * grid_.width();
    targets_.clear();
    for (size_t c = 0; c < planes.size() / cells; ++c)
      targets_.push_back(grid_.packed(&planes[c * cells]));
  }
  uint64_t error() override {
    uint64_t e = 0;
    for (size_t c = 0; c < targets_.size(); ++c) e += grid_.differences(int(c), targets_[c]);
    return e;
  }
  std::vector<uint8_t> planes() override {
    std::vector<uint8_t> out;
    out.reserve(size_t(grid_.channels()) * grid_.height() * grid_.width());
    for (int c = 0; c < grid_.channels(); ++c)
      for (int y = 0; y < grid_.height(); ++y)
        for (int x = 0; x < grid_.width(); ++x) out.push_back(grid_.get(c, y, x));
    return out;
  }

 private:
  std::string kernel_name_;
  BitGrid grid_;
  std::vector<std::vector<uint64_t>> targets_;
};

}  // namespace

std::unique_ptr<SimulationGrid> make_cpu_grid(const Circuit& circuit,
                                              std::shared_ptr<const CircuitKernel> kernel,
                                              int height, int width, bool periodic) {
  return std::make_unique<CpuGrid>(circuit, std::move(kernel), height, width, periodic);
}

}  // namespace dlca
