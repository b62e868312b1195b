// Writing a user's file safely: to a temporary file beside it (FILE.tmp.<pid>.<n>), flushed, then
// renamed over it, so a crash never leaves a half-written file. Outputs that are not regular files
// (/dev/null, /dev/stdout, a pipe) are written directly and never replaced. Temporary files are
// removed on every exit path, signals included (remove_temporary_files), and stale ones left by
// dead processes are removed when the file is next written. Errors name the file and the reason.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dlca {

// Thrown for any problem with a named file; what() is "FILE: reason".
class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws FileError unless `path` can name a file: the system cuts a name at a NUL byte, so one that
// holds one (possible from Python) would name another file. The message shows it as \0.
void check_file_name(const std::string& path);

// An output being written: a registered temporary beside a regular (or new) file, or the file
// itself when it is a device or a pipe. commit() makes it the file; destroying an uncommitted
// OutputFile removes the temporary.
class OutputFile {
 public:
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  void write(std::string_view bytes);  // throws FileError
  // Many small pieces (a CSV row per step): kept and written 64 KiB at a time, so that a long
  // output is never held whole; write() and commit() write what is kept first.
  void append(std::string_view bytes);  // throws FileError
  void commit();                        // throws FileError
  const std::string& path() const { return path_; }

 private:
  void write_now(std::string_view bytes);
  void discard();
  std::string pending_;              // appended, not written yet
  std::string path_, tmp_, target_;  // tmp_ empty when writing directly; target_: renamed onto
  int fd_ = -1;
  int slot_ = -1;  // in the registry remove_temporary_files() reads
};

// Several outputs that replace their files together: each is written to its temporary as it is
// added, and commit() checks every target, then renames them all, so a failure while writing any
// (or a target that became a directory meanwhile) replaces none of the files.
class OutputGroup {
 public:
  void add(const std::string& path, std::string_view contents);  // throws FileError
  void add(std::unique_ptr<OutputFile> written);                 // e.g. a finished GIF
  void commit();                                                 // throws FileError

 private:
  std::vector<std::unique_ptr<OutputFile>> outputs_;
};

void write_file_atomically(const std::string& path, std::string_view contents);
// Throws FileError unless `path` could be created or replaced (its directory exists and is
// writable, and it is not a directory), so a long run can refuse a bad output path before it
// starts.
void check_writable(const std::string& path);
// Where `path` leads after following symbolic links, existing or not (a link to a file not yet
// made leads to that file); `path` itself when it is no link. Throws FileError for links that go
// round.
std::string link_target(const std::string& path);
// True when writes to `path` go in place (an existing device, pipe or socket, /dev/stdout): no
// temporary file, and no files meant to sit beside it either.
bool is_written_in_place(const std::string& path);
std::string read_file(const std::string& path, size_t max_bytes = size_t(1) << 30);

// A folder of temporary files, made in the system's (TMPDIR) as PREFIX_XXXXXX: removed with what
// it holds when destroyed and, like the temporary outputs, by remove_temporary_files on a signal,
// which removes the files named through file() and then the folder.
class TemporaryFolder {
 public:
  explicit TemporaryFolder(const std::string& prefix);  // throws std::runtime_error
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name);  // PATH/NAME, removed on a signal too

 private:
  std::string path_;
  std::vector<int> slots_;  // in the registry remove_temporary_files() reads
};

// Unlinks every temporary file this process is writing, and removes its temporary folders.
// Async-signal-safe (signal handlers call it).
void remove_temporary_files() noexcept;

}  // namespace dlca
