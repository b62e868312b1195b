// SIGINT/SIGTERM/SIGHUP handling (see stop_signals.hpp): sigaction, async-signal-safe handler, RAII
// restore.
#include "dlca/io/stop_signals.hpp"

#include <atomic>
#include <csignal>

#include "dlca/io/atomic_file.hpp"

namespace dlca {

namespace {

std::atomic<int> g_signal{0};
std::atomic<bool> g_graceful{false};
std::atomic<pid_t> g_child{0};  // ChildEndedBySignals

extern "C" void on_stop_signal(int signo) {
  int none = 0;
  if (g_graceful.load() && g_signal.compare_exchange_strong(none, signo)) return;
  if (const pid_t child = g_child.load(); child > 0) ::kill(child, SIGTERM);
  remove_temporary_files();
  ::signal(signo, SIG_DFL);
  ::raise(signo);
}

}  // namespace

StopSignals::StopSignals(bool graceful) : graceful_before_(g_graceful.load()) {
  g_signal = 0;
  g_graceful = graceful;
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, &interrupt_);
  ::sigaction(SIGTERM, &action, &terminate_);
  // A closed terminal (SIGHUP) stops like SIGTERM, unless the program was started not to mind it
  // (nohup).
  ::sigaction(SIGHUP, nullptr, &hangup_);
  if (hangup_.sa_handler != SIG_IGN) ::sigaction(SIGHUP, &action, nullptr);
}

StopSignals::~StopSignals() {
  ::sigaction(SIGINT, &interrupt_, nullptr);
  ::sigaction(SIGTERM, &terminate_, nullptr);
  ::sigaction(SIGHUP, &hangup_, nullptr);
  g_graceful = graceful_before_;
}

ChildEndedBySignals::ChildEndedBySignals(pid_t child) { g_child = child; }
ChildEndedBySignals::~ChildEndedBySignals() { g_child = 0; }

void ignore_closed_pipes() { ::signal(SIGPIPE, SIG_IGN); }

bool StopSignals::stop_requested() { return g_signal.load() != 0; }
int StopSignals::signal_number() { return g_signal.load(); }

}  // namespace dlca
