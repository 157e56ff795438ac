{
  "targets": [
    {
      "target_name": "djambi_mmap",
      "sources": ["mmap.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
