/*
 * map(fd, length): the first `length` bytes of an open file, reserved on disk (posix_fallocate)
 * and mapped shared, as an ArrayBuffer. A write into it is a write into the kernel's page cache
 * of the file, without a system call: it outlives a crash of the process (kill -9) exactly as a
 * write() does. The store's pending file uses it (server/src/store/pending.ts); the blocks are
 * reserved first so that a full disk fails here, at the map, and never as a SIGBUS on a later
 * write. The mapping goes when the ArrayBuffer is collected.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <node_api.h>

static const char *errno_code(int e) {
  switch (e) {
    case ENOSPC: return "ENOSPC";
    case EBADF: return "EBADF";
    case EACCES: return "EACCES";
    case EROFS: return "EROFS";
    case ENOMEM: return "ENOMEM";
    case EINVAL: return "EINVAL";
    case EFBIG: return "EFBIG";
    case ENODEV: return "ENODEV";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    default: return "EIO";
  }
}

static napi_value fail(napi_env env, const char *call, int e) {
  char message[160];
  snprintf(message, sizeof message, "%s: %s", call, strerror(e));
  napi_throw_error(env, errno_code(e), message);
  return NULL;
}

static void unmap(napi_env env, void *data, void *hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}

static napi_value map_file(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t fd = -1;
  int64_t length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok || napi_get_value_int64(env, argv[1], &length) != napi_ok ||
      fd < 0 || length <= 0 || length > ((int64_t)1 << 30)) {
    napi_throw_type_error(env, "ERR_INVALID_ARG", "map(fd, length): an open file and 1 byte to 1 GiB");
    return NULL;
  }
  int r = posix_fallocate(fd, 0, (off_t)length);
  if (r != 0) return fail(env, "posix_fallocate", r);
  void *p = mmap(NULL, (size_t)length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return fail(env, "mmap", errno);
  napi_value buffer;
  if (napi_create_external_arraybuffer(env, p, (size_t)length, unmap, (void *)(uintptr_t)length, &buffer) != napi_ok) {
    munmap(p, (size_t)length);
    napi_throw_error(env, "ENOTSUP", "external array buffers are not allowed in this runtime");
    return NULL;
  }
  return buffer;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn;
  if (napi_create_function(env, "map", NAPI_AUTO_LENGTH, map_file, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "map", fn) != napi_ok) return NULL;
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
