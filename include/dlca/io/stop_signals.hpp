// SIGINT, SIGTERM and SIGHUP (unless ignored, as under nohup) for the command-line programs,
// installed for a scope and restored after it
// (also when it is left by an exception). Graceful: the first signal only asks the program to stop
// (stop_requested()); a second one, or any signal when not graceful, removes the temporary files
// being written (remove_temporary_files) and ends the process by the signal (status 130 / 143 /
// 129).
#pragma once

#include <csignal>

#include <sys/types.h>

namespace dlca {

// For the command-line programs' main: a closed standard output (`dlca train ... | head -1`) makes
// writes to it fail instead of killing the process by SIGPIPE, so a training goes on and writes its
// files (its progress lines are then lost).
void ignore_closed_pipes();

// A child process that a signal ending this program ends too (SIGTERM), so that it does not run
// on, orphaned (the C compiler dlca run starts), while this object lives. One at a time.
class ChildEndedBySignals {
 public:
  explicit ChildEndedBySignals(pid_t child);
  ~ChildEndedBySignals();
  ChildEndedBySignals(const ChildEndedBySignals&) = delete;
  ChildEndedBySignals& operator=(const ChildEndedBySignals&) = delete;
};

class StopSignals {
 public:
  explicit StopSignals(bool graceful);
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  static bool stop_requested();
  static int signal_number();  // the first signal received, 0 if none

 private:
  struct sigaction interrupt_ {
  }, terminate_{}, hangup_{};
  bool graceful_before_ = false;
};

}  // namespace dlca
