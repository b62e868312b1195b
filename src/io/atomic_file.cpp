// Atomic file writes (registered temporary + fsync + rename, or direct writes to devices and
// pipes), removal of temporaries on signals and of stale ones of dead processes, and size-limited
// whole-file reads.
#include "dlca/io/atomic_file.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>  // mkdtemp
#include <sys/stat.h>
#include <unistd.h>

namespace dlca {

namespace {

// The temporaries being written, readable from a signal handler: a slot is claimed with `state`
// 0 -> 1, its path copied, then published with 2 (a file) or 3 (a folder, removed after the files).
struct TemporarySlot {
  std::atomic<int> state{0};
  char path[4096];
};
std::array<TemporarySlot, 16> g_temporaries;
constexpr int kTemporaryFile = 2, kTemporaryFolder = 3;

int register_temporary(const std::string& path, int kind = kTemporaryFile) {
  if (path.size() >= sizeof(TemporarySlot::path)) return -1;
  for (size_t i = 0; i < g_temporaries.size(); ++i) {
    int expected = 0;
    if (g_temporaries[i].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(g_temporaries[i].path, path.c_str(), path.size() + 1);
      g_temporaries[i].state = kind;
      return int(i);
    }
  }
  return -1;  // more than 16 at once: not removed on a signal (never happens in dlca)
}

void unregister_temporary(int slot) {
  if (slot >= 0) g_temporaries[size_t(slot)].state = 0;
}

std::string error_text() { return std::strerror(errno); }

// The name of FILE's temporaries without "<pid>.<n>": "NAME.tmp.", or for a name too long to
// take that and the numbers within the 255 bytes a file name may have, its first bytes, '~' and a
// hash of the whole name (so that two long names with the same beginning do not share
// temporaries).
std::string temporary_prefix(const std::filesystem::path& file) {
  constexpr size_t kNameMax = 255, kPidDigits = 10 + 1 + 20;
  const std::string name = file.filename().string();
  const std::string suffix = ".tmp.";
  if (name.size() + suffix.size() + kPidDigits <= kNameMax) return name + suffix;
  uint32_t hash = 2166136261u;  // FNV-1a
  for (unsigned char c : name) hash = (hash ^ c) * 16777619u;
  const std::string tag = fmt::format("~{:08x}", hash);
  return name.substr(0, kNameMax - suffix.size() - kPidDigits - tag.size()) + tag + suffix;
}

// "DIR/NAME.tmp.<pid>.<n>" (or, from older builds, "NAME.tmp.<pid>") files of processes that no
// longer exist, left by a kill.
void remove_stale_temporaries(const std::filesystem::path& file) {
  const std::filesystem::path dir = file.has_parent_path() ? file.parent_path() : ".";
  const std::string prefix = temporary_prefix(file);
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (const dirent* entry = ::readdir(d)) {
    const std::string name = entry->d_name;
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    std::string digits = name.substr(prefix.size());
    if (const size_t dot = digits.find('.'); dot != std::string::npos) {
      const std::string count = digits.substr(dot + 1);
      if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos) continue;
      digits.resize(dot);
    }
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const pid_t pid = pid_t(std::stol(digits));
    if (pid <= 0 || pid == ::getpid()) continue;
    if (::kill(pid, 0) != 0 && errno == ESRCH) ::unlink((dir / name).c_str());
  }
  ::closedir(d);
}

// True for paths written in place: existing devices, pipes and sockets, and the /dev and /proc
// names of the standard streams (whatever they point to).
bool written_directly(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  if (S_ISDIR(st.st_mode)) throw FileError(path + ": is a directory");
  if (!S_ISREG(st.st_mode)) return true;
  struct stat link {};
  return ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode) &&
         (path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0);
}

// Temporaries made by this process so far: with the pid, a unique name for each, so that threads
// writing the same file (Python trainings side by side) never share one.
std::atomic<uint64_t> g_temporaries_made{0};

}  // namespace

std::string link_target(const std::string& path) {
  std::error_code ec;
  std::filesystem::path target = path;
  for (int hops = 0; std::filesystem::is_symlink(target, ec); ++hops) {
    const std::filesystem::path next = std::filesystem::read_symlink(target, ec);
    if (hops == 40 || ec)
      throw FileError(path + ": cannot write (" +
                      (ec ? ec.message() : std::string("too many levels of symbolic links")) + ")");
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  return target.string();
}

void check_file_name(const std::string& path) {
  if (path.find('\0') == std::string::npos) return;
  std::string shown;
  for (char c : path) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
  throw FileError(shown + ": a file name cannot contain a NUL byte");
}

void remove_temporary_files() noexcept {
  for (TemporarySlot& slot : g_temporaries)
    if (slot.state.load() == kTemporaryFile) ::unlink(slot.path);
  for (TemporarySlot& slot : g_temporaries)
    if (slot.state.load() == kTemporaryFolder) ::rmdir(slot.path);
}

TemporaryFolder::TemporaryFolder(const std::string& prefix) {
  std::error_code no_temp;
  const std::filesystem::path temp = std::filesystem::temp_directory_path(no_temp);
  if (no_temp)  // e.g. TMPDIR names a missing folder
    throw std::runtime_error("no folder for temporary files (" + no_temp.message() +
                             "; TMPDIR names it)");
  std::string pattern = (temp / (prefix + "_XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error("cannot create a temporary directory in " + temp.string());
  path_ = pattern;
  slots_.push_back(register_temporary(path_, kTemporaryFolder));
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
  for (int slot : slots_) unregister_temporary(slot);
}

std::string TemporaryFolder::file(const std::string& name) {
  const std::string path = path_ + "/" + name;
  slots_.push_back(register_temporary(path));
  return path;
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  check_file_name(path_);
  if (written_directly(path_)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw FileError(path_ + ": cannot write (" + error_text() + ")");
    return;
  }
  // A symbolic link: replace the file it names (or make it, for a link to a file not yet there),
  // not the link.
  const std::filesystem::path target = link_target(path_);
  remove_stale_temporaries(target);
  tmp_ = (target.parent_path() / temporary_prefix(target)).string() +
         fmt::format("{}.{}", ::getpid(), g_temporaries_made++);
  slot_ = register_temporary(tmp_);
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    const std::string reason = error_text();
    unregister_temporary(slot_);
    throw FileError(path_ + ": cannot write (" + reason + ")");
  }
  target_ = target.string();
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  tmp_.clear();
  unregister_temporary(slot_);
  slot_ = -1;
}

void OutputFile::append(std::string_view bytes) {
  pending_.append(bytes);
  if (pending_.size() >= (size_t(1) << 16)) write({});
}

void OutputFile::write(std::string_view bytes) {
  if (!pending_.empty()) {
    const std::string kept = std::move(pending_);
    pending_.clear();
    write_now(kept);
  }
  write_now(bytes);
}

void OutputFile::write_now(std::string_view bytes) {
  if (fd_ < 0) throw FileError(path_ + ": write after the file was closed");
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string reason = n < 0 ? error_text() : "no progress";
      discard();
      throw FileError(path_ + ": write failed (" + reason + ")");
    }
    done += size_t(n);
  }
}

void OutputFile::commit() {
  write({});  // what append() kept
  if (fd_ < 0) throw FileError(path_ + ": write after the file was closed");
  if (tmp_.empty()) {  // a device or pipe: nothing to sync or rename
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw FileError(path_ + ": write failed (" + error_text() + ")");
    return;
  }
  const int fd = fd_;
  fd_ = -1;
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string reason = error_text();
    discard();
    throw FileError(path_ + ": write failed (" + reason + ")");
  }
  if (std::rename(tmp_.c_str(), target_.c_str()) != 0) {
    const std::string reason = error_text();
    discard();
    throw FileError(path_ + ": cannot replace (" + reason + ")");
  }
  tmp_.clear();
  unregister_temporary(slot_);
  slot_ = -1;
}

void OutputGroup::add(const std::string& path, std::string_view contents) {
  outputs_.push_back(std::make_unique<OutputFile>(path));
  outputs_.back()->write(contents);
}

void OutputGroup::add(std::unique_ptr<OutputFile> written) {
  outputs_.push_back(std::move(written));
}

void OutputGroup::commit() {
  // Every target is checked before any is renamed (one made a directory while the bytes were
  // written would otherwise fail after the others were replaced).
  for (const auto& output : outputs_) check_writable(output->path());
  for (const auto& output : outputs_) output->commit();
  outputs_.clear();
}

void write_file_atomically(const std::string& path, std::string_view contents) {
  OutputFile out(path);
  out.write(contents);
  out.commit();
}

bool is_written_in_place(const std::string& path) {
  try {
    return written_directly(path);
  } catch (const FileError&) {  // a directory: refused when written
    return false;
  }
}

void check_writable(const std::string& path) {
  check_file_name(path);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw FileError(path + ": is a directory");
    if (!S_ISREG(st.st_mode)) {  // a device or pipe is written in place
      if (::access(path.c_str(), W_OK) != 0)
        throw FileError(path + ": cannot write (" + error_text() + ")");
      return;
    }
  }
  // The folder the file is made in: that of the file a symbolic link leads to.
  const std::string target = link_target(path);
  const size_t slash = target.find_last_of('/');
  const std::string dir =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : target.substr(0, slash));
  if (::stat(dir.c_str(), &st) != 0)
    throw FileError(path + ": cannot write there (" + dir + ": " + error_text() + ")");
  if (!S_ISDIR(st.st_mode))
    throw FileError(path + ": cannot write there (" + dir + ": not a directory)");
  if (::access(dir.c_str(), W_OK) != 0)
    throw FileError(path + ": cannot write there (" + dir + ": " + error_text() + ")");
}

std::string read_file(const std::string& path, size_t max_bytes) {
  check_file_name(path);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw FileError(path + ": cannot open (" + error_text() + ")");
  if (S_ISDIR(st.st_mode)) throw FileError(path + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileError(path + ": cannot open (" + error_text() + ")");
  // A pipe or device, or a file whose size the system does not report (/proc's): read up to the
  // limit.
  if (!S_ISREG(st.st_mode) || st.st_size == 0) {
    std::string data;
    char buffer[65536];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
      data.append(buffer, size_t(in.gcount()));
      if (data.size() > max_bytes)
        throw FileError(path + ": too large (more than " + std::to_string(max_bytes) + " bytes)");
    }
    return data;
  }
  if (uint64_t(st.st_size) > max_bytes)
    throw FileError(path + ": too large (" + std::to_string(st.st_size) + " bytes)");
  std::string data(size_t(st.st_size), '\0');
  if (!in.read(data.data(), std::streamsize(data.size()))) throw FileError(path + ": read failed");
  return data;
}

}  // namespace dlca
