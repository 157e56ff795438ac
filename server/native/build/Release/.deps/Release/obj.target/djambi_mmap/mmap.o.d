cmd_Release/obj.target/djambi_mmap/mmap.o := cc -o Release/obj.target/djambi_mmap/mmap.o ../mmap.c '-DNODE_GYP_MODULE_NAME=djambi_mmap' '-DUSING_UV_SHARED=1' '-DUSING_V8_SHARED=1' '-DV8_DEPRECATION_WARNINGS=1' '-D_GLIBCXX_USE_CXX11_ABI=1' '-D_FILE_OFFSET_BITS=64' '-D_LARGEFILE_SOURCE' '-D__STDC_FORMAT_MACROS' '-DOPENSSL_NO_PINSHARED' '-DOPENSSL_THREADS' '-DNAPI_VERSION=8' '-DBUILDING_NODE_EXTENSION' -I/usr/include/node -I/usr/src -I/usr/deps/openssl/config -I/usr/deps/openssl/openssl/include -I/usr/deps/uv/include -I/usr/deps/zlib -I/usr/deps/v8/include  -fPIC -pthread -Wall -Wextra -Wno-unused-parameter -O2 -Wall -Wextra -m64 -O3 -fno-omit-frame-pointer  -MMD -MF ./Release/.deps/Release/obj.target/djambi_mmap/mmap.o.d.raw   -c
Release/obj.target/djambi_mmap/mmap.o: ../mmap.c \
 /usr/include/node/node_api.h /usr/include/node/js_native_api.h \
 /usr/include/node/js_native_api_types.h \
 /usr/include/node/node_api_types.h
../mmap.c:
/usr/include/node/node_api.h:
/usr/include/node/js_native_api.h:
/usr/include/node/js_native_api_types.h:
/usr/include/node/node_api_types.h:
