/* fuzz_model.c - libFuzzer target: arbitrary bytes as a model file, through mbgen's own host
 * (generator/mbgen.c: allocator cap, instruction hook, CPU timer) and loader (model.lua), then
 * the back end (emit.lua) for small valid models. A finding: a crash, a sanitizer report, or an
 * internal error (mbgen's exit 2: a generator bug) instead of a user error "file:line: error:". */
#define _POSIX_C_SOURCE 200809L   /* sigsetjmp; the same as mbgen.c */
#include <setjmp.h>
#include <stdint.h>
#include <unistd.h>
#include "lua.h"

/* Lower limits than mbgen's, so that endless loops cost milliseconds, not seconds. */
#define MODEL_MAX_INSTR 300000L
#define MODEL_MAX_CPU_S 2
#define CPU_TEXT "2 s"
#define MODEL_MAX_MEM ((size_t)64 << 20)
#define MEM_TEXT "64 MiB"
#define MBGEN_NO_MAIN

/* The CPU timer ends mbgen with _exit (a C function such as a pathological pattern match cannot
 * be interrupted otherwise). Here the first alarm trips the guard (the model stops at its next
 * VM instruction, as after the instruction limit) and re-arms the timer; a second one jumps back
 * to the input's start and the Lua state is abandoned (kept reachable for LeakSanitizer). */
static sigjmp_buf cpu_jump;
static int cpu_strikes;
static void fuzz_cpu_exit(int code);

/* Coverage of Lua lines for libFuzzer: a line hook counts (source, line) pairs in an extra
 * counters section, composed with the host's own hook (instruction count, calls). */
__attribute__((used, section("__libfuzzer_extra_counters"))) static uint8_t lua_lines[1 << 16];
static lua_Hook inner_hook;
static int inner_mask;

static void fuzz_hook(lua_State *L, lua_Debug *ar)
{
    int ev = ar->event == LUA_HOOKTAILCALL ? LUA_HOOKCALL : ar->event;
    if (ar->event == LUA_HOOKLINE && lua_getinfo(L, "S", ar)) {
        uint32_t h = 2166136261u;
        for (const char *c = ar->source; *c; c++) h = (h ^ (uint8_t)*c) * 16777619u;
        h = (h ^ (uint32_t)ar->currentline) * 16777619u;
        lua_lines[(h ^ (h >> 16)) & (sizeof lua_lines - 1)]++;
    }
    if (inner_hook && (inner_mask & (1 << ev))) inner_hook(L, ar);
}

static void fuzz_sethook(lua_State *L, lua_Hook f, int mask, int count)
{
    inner_hook = f;
    inner_mask = f ? mask : 0;
    lua_sethook(L, fuzz_hook, (f ? mask : 0) | LUA_MASKLINE, count);
}

#define _exit fuzz_cpu_exit
#define lua_sethook fuzz_sethook
#include "../../generator/mbgen.c"
#undef lua_sethook
#undef _exit

static void fuzz_cpu_exit(int code)
{
    (void)code;
    if (cpu_strikes++ == 0 && MEM.L != NULL) {
        G.tripped = 1;
        fuzz_sethook(MEM.L, count_hook, LUA_MASKCOUNT, 1);
        /* strict POSIX signal() has System V semantics (reset to SIG_DFL on delivery): without
         * this the second alarm killed the fuzzer (tests/hostile/cpu_pattern.lua) */
        signal(SIGVTALRM, cpu_alarm);
        set_cpu_timer(1);
        return;
    }
    siglongjmp(cpu_jump, 1);
}

/* The driver: the same calls as main.lua's --check path, then emit for small models. */
static const char driver[] =
    "local host, path = ...\n"
    "local model = require 'model'\n"
    "local M = model.load(path, {}, { guard = host.guard, gendir = host.gendir })\n"
    "if #M.bodies <= 6 and #M.elements <= 16 then\n"
    "  local emit = require 'emit'\n"
    "  local files = emit.generate(M, { version = host.version, generator = 'mbgen fuzz',\n"
    "                                  model_interface = host.model_interface,\n"
    "                                  options = {}, options_text = '' })\n"
    "  assert(type(files) == 'table' and #files >= 2, 'emit returned no files')\n"
    "end\n";

static char model_path[PATH_MAX];
static char gendir[PATH_MAX];
static lua_State *abandoned[256];
static int n_abandoned;

static char work_dir[64];
static void remove_work_dir(void)   /* at the end of the bounded run */
{
    remove(model_path);
    rmdir(work_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(work_dir, sizeof work_dir, "/tmp/mbgen_fuzz.XXXXXX");
    if (!mkdtemp(work_dir)) abort();
    snprintf(model_path, sizeof model_path, "%s/model.lua", work_dir);
    atexit(remove_work_dir);
    find_gendir(gendir, sizeof gendir);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(model_path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();

    lua_State *L = lua_newstate(l_alloc, &MEM);
    if (!L) abort();
    MEM.L = L;
    luaL_openlibs(L);
    lua_getglobal(L, "package");
    lua_pushfstring(L, "%s/?.lua", gendir);
    lua_setfield(L, -2, "path");
    lua_pushliteral(L, "");
    lua_setfield(L, -2, "cpath");
    lua_pop(L, 1);
    fuzz_sethook(L, NULL, 0, 0);
    lua_pushcfunction(L, msgh);
    int hidx = lua_gettop(L);
    if (luaL_loadbufferx(L, driver, sizeof driver - 1, "=fuzz_driver", "t") != LUA_OK) abort();
    luaL_newlib(L, host_funcs);
    lua_pushliteral(L, MBGEN_VERSION);
    lua_setfield(L, -2, "version");
    lua_pushinteger(L, MB_MODEL_INTERFACE);
    lua_setfield(L, -2, "model_interface");
    lua_pushstring(L, gendir);
    lua_setfield(L, -2, "gendir");
    lua_pushstring(L, model_path);

    if (sigsetjmp(cpu_jump, 1)) {
        /* CPU limit (mbgen would exit 1 with a message): reset the guard, abandon the state */
        set_cpu_timer(0);
        G.depth = 0;
        G.tripped = 0;
        MEM.hit = 0;
        MEM.used = 0;
        MEM.limit = TOTAL_MAX_MEM;
        if (n_abandoned < (int)(sizeof abandoned / sizeof abandoned[0])) abandoned[n_abandoned++] = L;
        return 0;
    }
    internal_error = 0;
    cpu_strikes = 0;
    int status = lua_pcall(L, 2, 0, hidx);
    if (status != LUA_OK && status != LUA_ERRMEM) {
        const char *msg = lua_tostring(L, -1);
        if (msg == NULL || internal_error || strstr(msg, ": error: ") == NULL) {
            fprintf(stderr, "fuzz_model: internal error for this input (mbgen would exit 2):\n%s\n",
                    msg ? msg : "(no message)");
            abort();
        }
    }
    lua_close(L);
    MEM.L = NULL;
    return 0;
}
