// Memory estimated before allocating: a program adds up what a run will need and refuses it, with
// the estimate and the limit, when it exceeds the memory available (MemAvailable in /proc/meminfo)
// or the user's --max-memory. Better than a bare std::bad_alloc half-way through.
#pragma once

#include <cstdint>
#include <string>

namespace dlca {

// "4G", "512M", "1.5G", "64K", "1T" (binary units) or a plain number of bytes. Throws
// std::invalid_argument naming the text.
uint64_t parse_memory_size(const std::string& text);
std::string format_bytes(uint64_t bytes);  // "1.5 GiB"
uint64_t available_memory_bytes();         // MemAvailable; 0 when unknown

// Throws std::runtime_error "WHAT needs about X of memory, more than ... (--max-memory ...)" when
// `needed` exceeds `max_memory` (if non-zero) or else the available memory (if known).
// `offer_max_memory`: whether the message suggests --max-memory (not where there is none).
void check_memory(uint64_t needed, const std::string& what, uint64_t max_memory,
                  bool offer_max_memory = true);

// A CLI11 check for --max-memory: empty when `text` parses, else the reason.
std::string memory_size_error(const std::string& text);

}  // namespace dlca
