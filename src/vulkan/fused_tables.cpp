// The fused step kernels' tables (see fused_tables.hpp): lifetimes of rows in the phases of a
// step, shared-memory slots by greedy interval colouring, and the per-level gradient gathers.
#include "vulkan/fused_tables.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <queue>
#include <stdexcept>

namespace dlca::vulkan_layout {

namespace {

// A row's lifetime in phases of a step: written (or first added to) at `birth`, last read at
// `last`; birth < 0: the row needs no slot.
struct Lifetime {
  int birth = -1, last = -1;
};

// Slots for the rows: two rows share one only when one's last phase is before the other's birth
// (phases are separated by workgroup barriers). Greedy by birth, lowest free slot first.
std::vector<uint32_t> allocate_slots(const std::vector<Lifetime>& lives, uint32_t& count) {
  std::vector<uint32_t> order(lives.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t x, uint32_t y) { return lives[x].birth < lives[y].birth; });
  using Active = std::pair<int, uint32_t>;  // (last phase, slot)
  std::priority_queue<Active, std::vector<Active>, std::greater<>> active;
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> free_slots;
  std::vector<uint32_t> slot(lives.size(), kNoSlot);
  count = 0;
  for (uint32_t row : order) {
    const Lifetime& life = lives[row];
    if (life.birth < 0) continue;
    while (!active.empty() && active.top().first < life.birth) {
      free_slots.push(active.top().second);
      active.pop();
    }
    if (free_slots.empty()) {
      slot[row] = count++;
    } else {
      slot[row] = free_slots.top();
      free_slots.pop();
    }
    active.push({life.last, slot[row]});
  }
  return slot;
}

}  // namespace

FusedTables make_fused_tables(const CellProgram& prog, const ProgramTables& tables) {
  const uint32_t C = uint32_t(prog.channels), patch_rows = 9 * C, rows = prog.num_rows;
  const int L = int(tables.levels.size());
  std::vector<int> level_of(prog.ops.size(), 0);
  for (int l = 0; l < L; ++l)
    for (uint32_t k = 0; k < tables.levels[size_t(l)].second; ++k)
      level_of[tables.levels[size_t(l)].first + k] = l;

  // Producer level of each row: -1 for the patch rows, -2 for rows nothing writes.
  std::vector<int> producer(rows, -2);
  for (uint32_t r = 0; r < patch_rows && r < rows; ++r) producer[r] = -1;
  for (size_t o = 0; o < prog.ops.size(); ++o) {
    const GateOp& op = prog.ops[o];
    if (op.out >= rows || producer[op.out] != -2)
      throw std::invalid_argument("fused tables: a row is written twice or is out of range");
    producer[op.out] = level_of[o];
  }
  std::vector<bool> is_output(rows, false);
  for (uint32_t r : prog.output_rows) {
    if (r >= rows || producer[r] == -2)
      throw std::invalid_argument("fused tables: an output row is never written");
    is_output[r] = true;
  }
  // Readers of every row in op order, and the latest level reading it.
  std::vector<int> last_reader(rows, -1);
  for (size_t o = 0; o < prog.ops.size(); ++o)
    for (uint32_t r : {prog.ops[o].a, prog.ops[o].b}) {
      if (r >= rows || producer[r] == -2 || producer[r] >= level_of[o])
        throw std::invalid_argument("fused tables: an op reads a row not written before it");
      last_reader[r] = std::max(last_reader[r], level_of[o]);
    }

  FusedTables t;
  // Forward phases: 0 gathers the patch rows, level l is phase l + 1, L + 1 writes the state.
  std::vector<Lifetime> forward(rows);
  for (uint32_t r = 0; r < rows; ++r) {
    if (producer[r] == -2) continue;
    forward[r].birth = producer[r] + 1;
    forward[r].last = std::max({forward[r].birth, last_reader[r] + 1, is_output[r] ? L + 1 : 0});
  }
  const std::vector<uint32_t> fslot = allocate_slots(forward, t.forward_slots);

  // Backward phases: 0 sets the output rows' gradients, level l is phase L - l (the op's sums
  // and its inputs' gradients in one phase), L + 1 writes the patch rows' gradients.
  std::vector<Lifetime> backward(rows);
  for (uint32_t r = 0; r < rows; ++r) {
    if (producer[r] == -2 || (last_reader[r] < 0 && !is_output[r])) continue;
    backward[r].birth = is_output[r] ? 0 : L - last_reader[r];
    backward[r].last = producer[r] < 0 ? L + 1 : L - producer[r];
  }
  const std::vector<uint32_t> dslot = allocate_slots(backward, t.backward_slots);

  for (const GateOp& op : prog.ops) {
    t.forward_ops.insert(t.forward_ops.end(), {fslot[op.a], fslot[op.b], fslot[op.out], op.gate});
    t.backward_ops.insert(t.backward_ops.end(), {op.a, op.b, dslot[op.out], op.gate});
  }

  // Info: levels, then the slot tables, then the readers lists the gather entries point into.
  t.info.push_back(uint32_t(L));
  const size_t level_at = t.info.size();
  t.info.resize(level_at + 4 * size_t(L));
  for (uint32_t r = 0; r < patch_rows; ++r) t.info.push_back(fslot[r]);
  for (uint32_t r : prog.output_rows) t.info.push_back(fslot[r]);
  for (uint32_t r = 0; r < patch_rows; ++r) t.info.push_back(dslot[r]);
  for (uint32_t r : prog.output_rows) t.info.push_back(dslot[r]);
  for (int l = 0; l < L; ++l) {
    const auto [first, count] = tables.levels[size_t(l)];
    std::map<uint32_t, std::vector<uint32_t>> readers;  // row -> op * 2 + side, in op order
    for (uint32_t o = first; o < first + count; ++o) {
      readers[prog.ops[o].a].push_back(2 * o);
      readers[prog.ops[o].b].push_back(2 * o + 1);
    }
    uint32_t* level = &t.info[level_at + 4 * size_t(l)];
    level[0] = first;
    level[1] = count;
    level[2] = uint32_t(t.gather.size() / 4);
    for (const auto& [row, list] : readers) {
      const bool first_contribution = !is_output[row] && last_reader[row] == l;
      const uint32_t begin = uint32_t(t.info.size());
      t.info.insert(t.info.end(), list.begin(), list.end());
      t.gather.insert(t.gather.end(),
                      {dslot[row], first_contribution ? 1u : 0u, begin, uint32_t(t.info.size())});
    }
    t.info[level_at + 4 * size_t(l) + 3] = uint32_t(t.gather.size() / 4);
  }
  return t;
}

uint32_t fused_tile(uint32_t slots, uint64_t shared_bytes, uint32_t max_tile) {
  if (slots == 0) return max_tile;
  return uint32_t(std::min<uint64_t>(max_tile, shared_bytes / 4 / slots));
}

}  // namespace dlca::vulkan_layout
