// An exclusive lock on a file (file_lock.hpp).
#include "dlca/io/file_lock.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include "dlca/io/atomic_file.hpp"

namespace dlca {

FileLock::FileLock(const std::string& path, const std::string& owner, const std::string& busy) {
  std::error_code error;
  file_was_there_ = std::filesystem::exists(path, error);
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw FileError(fmt::format("{}: cannot create {}: {}", owner, path, std::strerror(errno)));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    throw FileError(busy);
  }
}

FileLock::~FileLock() { ::close(fd_); }

}  // namespace dlca
