# warplab: build, run, test, bench, install.
#   make            build build/warplab-server, build/warplab-runner, build/warplab-store and www/vendor
#   make run        install missing packages, build, start both on 127.0.0.1:8080
#   make test       install missing packages, build, run every suite
#   make test SANITIZE=1   the same under AddressSanitizer + UBSan
#   make install PREFIX=/usr/local DESTDIR=

VERSION := 0.1.0
# Build on every core (the sub-makes of test and run too).
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
PKG_CONFIG ?= pkg-config
LIBS_PKG := libmicrohttpd jansson OpenCL sqlite3 libpq zlib

ifeq ($(SANITIZE),1)
BUILD ?= build/sanitize
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD ?= build
SAN_FLAGS :=
endif

# Recursively expanded: pkg-config runs when a rule needs it, after `deps`.
WL_CFLAGS = -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -MMD -MP \
	-DWL_VERSION='"$(VERSION)"' -DWL_LIBDIR='"$(PREFIX)/lib/warplab"' $(SAN_FLAGS) -fopenmp \
	$(shell $(PKG_CONFIG) --cflags $(LIBS_PKG))
# The layering (docs/architecture.md), enforced: a folder's files find only the
# headers of the folders below them. common/ is the floor; store/ and catalog/
# stand on it side by side; model/ stands on catalog/; analysis/ on model/ and
# the store; server/ and runner/ stand on what is below them, tools/ on all
# but model/, and never on each other. A folder inside a room is a room of its
# own with a line here (INC_runner/opencl): a file is compiled with its
# folder's line, or its top room's where its folder has none. The tests see
# everything.
INC_common := -Icommon
INC_store := -Istore -Icommon
INC_catalog := -Icatalog -Icommon
INC_model := -Imodel -Icatalog -Icommon
INC_analysis := -Ianalysis -Imodel -Istore -Icatalog -Icommon
INC_server := -Iserver -Iserver/api -Iserver/http -Ianalysis -Imodel -Istore -Icatalog -Icommon
# server/http/ is the HTTP plumbing and knows nothing of runs; server/api/,
# the handlers, stand on it and on the analysis; the top of server/ (main,
# the route table) on both.
INC_server/http := -Iserver/http -Icommon
INC_server/api := -Iserver/api -Iserver/http -Ianalysis -Imodel -Istore -Icatalog -Icommon
# runner/ is rooms of its own (docs/architecture.md): the device every API
# shares, one folder per device API, execution, the families, the probes of
# device facts, tracing, and process control; a family never sees an API,
# an API never sees execution.
R := -Irunner
INC_runner/device := $(R)/device -Icatalog -Icommon
INC_runner/opencl := $(R)/opencl $(R)/device -Icatalog -Icommon
INC_runner/cuda := $(R)/cuda $(R)/device -Icatalog -Icommon
INC_runner/exec := $(R)/exec $(R)/device -Imodel -Istore -Icatalog -Icommon
INC_runner/families := $(R)/families $(R)/exec $(R)/device -Icatalog -Icommon
INC_runner/probes := $(R)/probes $(R)/opencl $(R)/cuda $(R)/exec $(R)/device -Imodel -Icatalog -Icommon
INC_runner/trace := $(R)/trace $(R)/families $(R)/exec $(R)/opencl $(R)/device -Imodel -Istore -Icatalog -Icommon
INC_runner/process := $(R)/process $(R)/trace $(R)/probes $(R)/families $(R)/exec $(R)/opencl $(R)/cuda \
	$(R)/device -Irunner -Imodel -Istore -Icatalog -Icommon
INC_runner := $(INC_runner/process)
INC_tools := -Itools -Istore -Icatalog -Icommon
ROOM_DIRS := $(shell find common store catalog model analysis server runner tools -type d 2>/dev/null | sort)
INC_tests := -Itests/fuzz $(addprefix -I,$(ROOM_DIRS))
room_of = $(patsubst %/,%,$(dir $(1)))
layer_flags = $(or $(INC_$(call room_of,$(1))),$(INC_$(firstword $(subst /, ,$(1)))))

# The include paths a room's files are compiled with (make include-flags
# ROOM=store, make include-flags ROOM=runner/opencl).
include-flags:
	@echo $(or $(INC_$(ROOM)),$(INC_$(firstword $(subst /, ,$(ROOM)))))
WL_LDFLAGS = $(SAN_FLAGS) -fopenmp
SERVER_LIBS = $(shell $(PKG_CONFIG) --libs libmicrohttpd jansson sqlite3 libpq zlib) -lpthread -lm
# NVML is opened at run time with dlopen (-ldl), never linked.
RUNNER_LIBS = $(shell $(PKG_CONFIG) --libs jansson OpenCL sqlite3 libpq) -lpthread -lm -ldl

# Every .c of a room and of the rooms inside it.
room_src = $(shell find $(1) -name '*.c' 2>/dev/null | sort)
SHARED_SRC := $(call room_src,common store catalog model)
ANALYSIS_SRC := $(call room_src,analysis)
SERVER_SRC := $(call room_src,server) $(ANALYSIS_SRC)
RUNNER_SRC := $(call room_src,runner)
TOOLS_SRC := $(wildcard tools/*.c)
UNIT_SRC := $(wildcard tests/unit/*.c)

SHARED_OBJ := $(SHARED_SRC:%.c=$(BUILD)/obj/%.o)
SERVER_OBJ := $(SERVER_SRC:%.c=$(BUILD)/obj/%.o)
RUNNER_OBJ := $(RUNNER_SRC:%.c=$(BUILD)/obj/%.o)
TOOLS_OBJ := $(TOOLS_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/obj/%.o)
# The unit tests link everything but the two mains.
LIB_SERVER_OBJ := $(filter-out $(BUILD)/obj/server/main.o,$(SERVER_OBJ))
LIB_RUNNER_OBJ := $(filter-out $(BUILD)/obj/runner/main.o,$(RUNNER_OBJ))

# What the dashboard loads from npm packages, by file name in www/vendor/.
VENDOR_FILES := chart.js/dist/chart.umd.js \
	chartjs-plugin-annotation/dist/chartjs-plugin-annotation.min.js \
	prismjs/components/prism-core.min.js prismjs/components/prism-clike.min.js \
	prismjs/components/prism-c.min.js \
	prismjs/components/prism-opencl.min.js prismjs/themes/prism.min.css \
	prismjs/plugins/line-numbers/prism-line-numbers.min.js \
	prismjs/plugins/line-numbers/prism-line-numbers.min.css \
	prismjs/plugins/line-highlight/prism-line-highlight.min.js \
	prismjs/plugins/line-highlight/prism-line-highlight.min.css \
	diff/dist/diff.min.js
VENDOR := $(addprefix www/vendor/,$(notdir $(VENDOR_FILES))) www/vendor/chartjs-chart-error-bars.min.js

.PHONY: all build deps run test fuzz bench install clean distclean include-flags

all: build

build: $(BUILD)/warplab-server $(BUILD)/warplab-runner $(BUILD)/warplab-store $(BUILD)/libwarplab-trace.so \
	$(BUILD)/warplab-cuda-ir $(VENDOR)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WL_CFLAGS) $(call layer_flags,$<) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# The model's version (analysis/model_version.c): a hash of the code a
# prediction is made by — the model, the catalog that reads declarations,
# the analysis that gathers a run's inputs and the store's copy ceiling —
# so that a build that may predict differently scores the model's ledger
# again rather than mixing its points with another's (docs/model.md). The
# catalog file's own hash joins it when the server loads it.
MODEL_VERSION_SRC := $(sort $(wildcard model/*.[ch] catalog/*.[ch])) analysis/predictions.c \
	analysis/prediction_memo.c analysis/build_view.c analysis/run_occupancy.c analysis/derived.c store/store_history.c
MODEL_HASH := $(shell cat $(MODEL_VERSION_SRC) | sha1sum | cut -c1-12)
MODEL_VERSION_OBJ := $(BUILD)/obj/analysis/model_version.o $(BUILD)/obj-sanitized/analysis/model_version.o
$(MODEL_VERSION_OBJ): $(MODEL_VERSION_SRC)
$(MODEL_VERSION_OBJ): WL_CFLAGS += -DWL_MODEL_HASH='"$(MODEL_HASH)"'

$(BUILD)/warplab-server: $(SERVER_OBJ) $(SHARED_OBJ)
	$(CC) $(WL_LDFLAGS) $(LDFLAGS) -o $@ $^ $(SERVER_LIBS)

$(BUILD)/warplab-runner: $(RUNNER_OBJ) $(SHARED_OBJ)
	$(CC) $(WL_LDFLAGS) $(LDFLAGS) -o $@ $^ $(RUNNER_LIBS)

# The Oclgrind plugin the tracer loads (runner/trace/oclgrind_trace.cpp): C++ by
# Oclgrind's interface, built as Debian's Oclgrind wants its plugins.
# It chooses the groups it runs by model/sample.c's rule, linked in.
$(BUILD)/libwarplab-trace.so: runner/trace/oclgrind_trace.cpp $(BUILD)/pic/model/sample.o
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -g -Wall -Wextra -Werror -fPIC -shared -fno-rtti -Imodel $(CXXFLAGS) $(LDFLAGS) -o $@ $^

# What makes a CUDA kernel's LLVM IR a program Oclgrind runs
# (runner/trace/cuda_ir.cpp): C++ by LLVM's interface, against LLVM 14,
# Oclgrind's; LLVM's headers are the system's, their warnings theirs.
LLVM_CONFIG ?= llvm-config-14
# An intrinsic is worded as the tracer words an OpenCL kernel's
# (runner/trace/untraceable.c, linked in).
$(BUILD)/warplab-cuda-ir: runner/trace/cuda_ir.cpp runner/trace/untraceable.h $(BUILD)/pic/runner/trace/untraceable.o
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -g -Wall -Wextra -Werror -fno-rtti -fno-exceptions \
		-isystem $$($(LLVM_CONFIG) --includedir) $(CXXFLAGS) $(LDFLAGS) -o $@ $< \
		$(BUILD)/pic/runner/trace/untraceable.o -L$$($(LLVM_CONFIG) --libdir) -lLLVM-14

$(BUILD)/pic/model/sample.o: model/sample.c model/sample.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -g -Wall -Wextra -Werror -fPIC $(CFLAGS) -c -o $@ $<

$(BUILD)/pic/runner/trace/untraceable.o: runner/trace/untraceable.c runner/trace/untraceable.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -g -Wall -Wextra -Werror -fPIC $(CFLAGS) -c -o $@ $<

# Copy, export and import whole stores (SQLite <-> PostgreSQL, JSON lines).
$(BUILD)/warplab-store: $(TOOLS_OBJ) $(SHARED_OBJ)
	$(CC) $(WL_LDFLAGS) $(LDFLAGS) -o $@ $^ $(SERVER_LIBS)

$(BUILD)/unit-tests: $(UNIT_OBJ) $(LIB_SERVER_OBJ) $(LIB_RUNNER_OBJ) $(SHARED_OBJ)
	$(CC) $(WL_LDFLAGS) $(LDFLAGS) -o $@ $^ $(shell $(PKG_CONFIG) --libs $(LIBS_PKG)) -lpthread -lm -ldl

# The fuzz replay (tests/fuzz/replay.c): the fuzz targets over every seed and
# past finding, always under AddressSanitizer and UBSan, from objects of its own.
REPLAY_SRC = $(SHARED_SRC) $(filter-out server/main.c %/daemon.c %/gate.c,$(SERVER_SRC)) \
	tests/fuzz/fuzz_targets.c tests/fuzz/replay.c
REPLAY_OBJ = $(REPLAY_SRC:%.c=$(BUILD)/obj-sanitized/%.o)
REPLAY_SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

$(BUILD)/obj-sanitized/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -O2,$(WL_CFLAGS)) -O1 $(REPLAY_SAN) $(call layer_flags,$<) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/fuzz-replay: $(REPLAY_OBJ)
	$(CC) $(WL_LDFLAGS) $(REPLAY_SAN) $(LDFLAGS) -o $@ $^ $(SERVER_LIBS) -lm

# Chart.js with its annotation and error-bar plugins, Prism (kernel source highlighting, line
# numbers, marked lines) and jsdiff (a custom kernel against its template) come
# from npm at build time, pinned by package-lock.json; playwright-core drives
# the browser tests.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

define vendor_rule
www/vendor/$(notdir $(1)): node_modules/.package-lock.json
	@mkdir -p www/vendor
	cp node_modules/$(1) $$@
endef
$(foreach f,$(VENDOR_FILES),$(eval $(call vendor_rule,$(f))))

# The error-bar plugin's file is called index.umd.min.js: give it its name.
www/vendor/chartjs-chart-error-bars.min.js: node_modules/.package-lock.json
	@mkdir -p www/vendor
	cp node_modules/chartjs-chart-error-bars/build/index.umd.min.js $@

deps:
	./deploy/install-deps.sh

run: deps
	$(MAKE) build
	./deploy/run.sh $(BUILD)

test: deps
	$(MAKE) build $(BUILD)/unit-tests $(BUILD)/fuzz-replay
	BUILD=$(BUILD) ./tests/run.sh

# libFuzzer targets over request validation and the HTTP handling path (no
# socket): clang with -fsanitize=fuzzer,address,undefined, all sources rebuilt.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS = -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -DWL_VERSION='"$(VERSION)"' $(INC_tests) \
	$(shell $(PKG_CONFIG) --cflags jansson sqlite3 libpq zlib)
FUZZ_LIBS = $(shell $(PKG_CONFIG) --libs jansson sqlite3 libpq zlib) -lpthread -lm
FUZZ_SRC = $(SHARED_SRC) $(filter-out server/main.c %/daemon.c %/gate.c,$(SERVER_SRC)) tests/fuzz/fuzz_targets.c

build/fuzz/fuzz-%: tests/fuzz/fuzz_main.c $(FUZZ_SRC)
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -DWL_FUZZ_TARGET=wl_fuzz_$* -o $@ $< $(FUZZ_SRC) $(FUZZ_LIBS)

fuzz:
	./deploy/install-deps.sh --fuzz
	$(MAKE) build/fuzz/fuzz-request build/fuzz/fuzz-http build/fuzz/fuzz-head build/fuzz/fuzz-source build/fuzz/fuzz-compiler
	./tests/fuzz/run.sh $(FUZZ_SECONDS)

bench: deps
	$(MAKE) build
	./bench/api-load.sh

install: build
	./deploy/install.sh "$(DESTDIR)" "$(PREFIX)" "$(BUILD)"

clean:
	rm -rf build

distclean: clean
	rm -rf node_modules www/vendor var

-include $(shell find build -name '*.d' 2>/dev/null)
