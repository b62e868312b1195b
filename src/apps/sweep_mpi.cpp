// dlca_sweep over MPI (see sweep_mpi.hpp). Messages: a worker sends a JSON text to rank 0 (empty
// when it is ready for its first run, then {"run": i, "row": {...}}, {"run": i, "interrupted":
// true} or {"run": i, "error": "..."}); rank 0 answers with the index of the next run, or -1 to
// stop. Only the main thread of each rank calls MPI.
#include <mpi.h>

#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "cli_parse.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/stop_signals.hpp"
#include "sweep_mpi.hpp"

namespace dlca::cli {

namespace {

constexpr int kTagResult = 1, kTagWork = 2;

void send_text(const std::string& text) {
  MPI_Send(text.data(), int(text.size()), MPI_CHAR, 0, kTagResult, MPI_COMM_WORLD);
}

// Receives the next worker message; `source` is its rank.
std::string receive_text(int& source) {
  MPI_Status status;
  MPI_Probe(MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string text(size_t(count), '\0');
  MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, kTagResult, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  source = status.MPI_SOURCE;
  return text;
}

void send_work(int rank, int64_t run) {
  MPI_Send(&run, 1, MPI_INT64_T, rank, kTagWork, MPI_COMM_WORLD);
}

// Rank 0: deals out the unfinished runs and records what comes back. False when stopped early.
bool deal(Sweep& sweep, int ranks, std::ostream& out, std::string& failure) {
  std::vector<size_t> pending;
  for (const SweepRun& run : sweep.runs())
    if (!sweep.finished(run.index)) pending.push_back(run.index);
  size_t next = 0;
  bool stopped = false;
  for (int working = ranks - 1; working > 0;) {
    int source = 0;
    const std::string text = receive_text(source);
    if (!text.empty()) {
      const nlohmann::json message = nlohmann::json::parse(text);
      const size_t run = message.at("run").get<size_t>();
      if (message.contains("row")) {
        const SweepRow row = SweepRow::from_json(message.at("row"));
        sweep.record(run, row);
        out << progress_line(row, sweep.finished_count(), sweep.runs().size()) << std::flush;
      } else if (message.contains("error")) {
        if (failure.empty())
          failure = fmt::format("run {} (rank {}): {}", sweep.runs().at(run).id, source,
                                message.at("error").get<std::string>());
      } else {
        stopped = true;
      }
    }
    if (failure.empty() && !stopped && !StopSignals::stop_requested() && next < pending.size()) {
      send_work(source, int64_t(pending[next++]));
    } else {
      send_work(source, -1);
      --working;
    }
  }
  return !stopped && failure.empty() && !StopSignals::stop_requested();
}

// Every other rank: trains what rank 0 deals out until told to stop.
void work(const Sweep& sweep, int threads) {
  send_text("");
  while (true) {
    int64_t run = -1;
    MPI_Recv(&run, 1, MPI_INT64_T, 0, kTagWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (run < 0) return;
    nlohmann::json message = {{"run", run}};
    try {
      const std::optional<SweepRow> row = sweep.train(sweep.runs().at(size_t(run)), threads);
      if (row)
        message["row"] = row->to_json();
      else
        message["interrupted"] = true;
    } catch (const std::exception& e) {
      message["error"] = e.what();
    }
    send_text(message.dump());
  }
}

}  // namespace

int run_sweep_mpi(Sweep& sweep, int jobs, int threads, std::ostream& out,
                  const std::function<void(int runs_at_once)>& announce_opened,
                  const std::function<int(bool complete)>& finish) {
  MPI_Init(nullptr, nullptr);
  // Ctrl-C and SIGTERM stop every rank's run after its epoch, as without MPI: installed again
  // after MPI_Init, in case the MPI runtime put its own handlers in place.
  const StopSignals signals(true);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks > 1 && jobs > 1) {  // the ranks train one run each at a time: --jobs would do nothing
    MPI_Finalize();
    if (rank == 0)
      throw UsageError(fmt::format(
          "--jobs {}: runs at once without MPI; under mpirun each of the {} ranks trains one run "
          "at a time (start more ranks instead)",
          jobs, ranks));
    return 2;
  }
  // Rank 0 opens the directory; the others wait to hear whether that worked. Its error is thrown
  // as it was (a directory of another sweep is bad usage, an unreadable one a failure).
  std::exception_ptr open_error;
  if (rank == 0) {
    try {
      sweep.open();
    } catch (...) {
      open_error = std::current_exception();
    }
  }
  int opened = !open_error;
  MPI_Bcast(&opened, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!opened) {
    MPI_Finalize();
    if (rank == 0) std::rethrow_exception(open_error);
    return 2;
  }
  int status = 0;
  if (rank == 0) {
    announce_opened(ranks == 1 ? jobs : ranks - 1);  // the other ranks train one run each
    std::string failure;
    const bool complete = ranks == 1 ? run_sweep_locally(sweep, jobs, threads, out)
                                     : deal(sweep, ranks, out, failure);
    if (!failure.empty()) {
      MPI_Finalize();
      throw std::runtime_error(failure);
    }
    status = finish(complete);
  } else {
    work(sweep, threads);
  }
  MPI_Finalize();
  return status;
}

}  // namespace dlca::cli
