// An exclusive lock on a file (flock), held while the object lives: one process at a time in a
// folder (a sweep's --out). The lock file is made when missing and stays after the lock is gone.
#pragma once

#include <string>

namespace dlca {

class FileLock {
 public:
  // Locks `path` (made when missing) without waiting. Throws FileError "OWNER: cannot create
  // PATH: reason" when it cannot be made, and FileError(busy) when another process holds it.
  FileLock(const std::string& path, const std::string& owner, const std::string& busy);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  // Whether the lock file was there before this lock made it.
  bool file_was_there() const { return file_was_there_; }

 private:
  int fd_ = -1;
  bool file_was_there_ = false;
};

}  // namespace dlca
