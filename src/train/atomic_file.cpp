// Atomic file writes (temporary + fsync + rename) and size-limited whole-file reads.
#include "dlca/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <unistd.h>

namespace dlca {

void write_file_atomically(const std::string& path, std::string_view contents) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw FileError(path + ": cannot write (" + std::strerror(errno) + ")");
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string reason = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      throw FileError(path + ": write failed (" + reason + ")");
    }
    done += size_t(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw FileError(path + ": write failed (" + reason + ")");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw FileError(path + ": cannot replace (" + reason + ")");
  }
}

void check_writable(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string dir =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  if (::access(dir.c_str(), W_OK) != 0)
    throw FileError(path + ": cannot write there (" + dir + ": " + std::strerror(errno) + ")");
}

std::string read_file(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileError(path + ": cannot open (" + std::strerror(errno) + ")");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) throw FileError(path + ": cannot read (not a regular file?)");
  if (size_t(size) > max_bytes)
    throw FileError(path + ": too large (" + std::to_string(size) + " bytes)");
  std::string data(size_t(size), '\0');
  in.seekg(0);
  if (!in.read(data.data(), size)) throw FileError(path + ": read failed");
  return data;
}

}  // namespace dlca
