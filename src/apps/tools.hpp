// The command-line tools, each a function of its arguments and of the name it reports errors under:
// the subcommands of the `dlca` program (dlca.cpp), also run under their old names through small
// launchers (old_name_launcher.cpp). argv[0] is the program name as typed; the rest its arguments.
// Each returns the exit status: 0 success, 1 failure while running, 2 bad usage.
#pragma once

#include <cstdlib>

namespace dlca::apps {

// The test suite's check that its command-line tests can fail (tests/CMakeLists.txt,
// cli.planted_failures_fail): with DLCA_TEST_PLANTED_FAILURE set, a program that succeeded exits 1
// after all its work, and every test of a sample must then fail.
inline int with_planted_failure(int status) {
  return status == 0 && std::getenv("DLCA_TEST_PLANTED_FAILURE") ? 1 : status;
}

int train_experiment(int argc, char** argv, const char* program);  // dlca train NAME|FILE
int train_checkerboard(int argc, char** argv, const char* program);
int train_gol(int argc, char** argv, const char* program);
int train_image(int argc, char** argv, const char* program);
int eval(int argc, char** argv, const char* program);
int run(int argc, char** argv, const char* program);
int export_circuit(int argc, char** argv, const char* program);
int sweep(int argc, char** argv, const char* program);
int devices(int argc, char** argv, const char* program);
int compare(int argc, char** argv, const char* program);

}  // namespace dlca::apps
