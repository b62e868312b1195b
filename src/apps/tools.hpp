// The command-line tools, each a function of its arguments and of the name it reports errors under:
// the subcommands of the `dlca` program (dlca.cpp) and, under their old names, the thin programs
// kept beside it (tool_main.cpp). argv[0] is the program name as typed; the rest its arguments.
// Each returns the exit status: 0 success, 1 failure while running, 2 bad usage.
#pragma once

namespace dlca::apps {

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
