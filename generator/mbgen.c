/* mbgen.c - the generator host: a C program embedding Lua 5.4 that runs generator/main.lua.
 * Layer: generator front end. Owns the process: Lua state, limits on model code (instruction
 * count hook, allocator cap, CPU timer), error reporting and the atomic writing of outputs. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#include "mb_version.h"          /* runtime/: the project's version, the model interface */

#define MBGEN_VERSION MB_VERSION_STRING
/* The data directory (generator/ and templates/) when none is found at run time: the source
 * tree for build/mbgen, PREFIX/share/mbgen for the installed mbgen (mk/install.mk). */
#ifndef MBGEN_DATADIR
#define MBGEN_DATADIR "."
#endif

/* Limits while model code runs (docs/model-language.md, "Sandbox and limits"). */
/* (The fuzz target tests/fuzz/fuzz_model.c lowers the instruction, memory and CPU limits.) */
#ifndef MODEL_MAX_INSTR
#define MODEL_MAX_INSTR  50000000L      /* Lua VM instructions per guarded call */
#endif
#ifndef MODEL_MAX_MEM
#define MODEL_MAX_MEM    ((size_t)256 << 20)   /* bytes allocated on top of the generator's */
#define MEM_TEXT         "256 MiB"      /* the same, for the message */
#endif
#ifndef MODEL_MAX_CPU_S
#define MODEL_MAX_CPU_S  5              /* CPU seconds per guarded call (C loops, patterns) */
#define CPU_TEXT         "5 s"          /* the same, for the message */
#endif
#define TOTAL_MAX_MEM    ((size_t)4 << 30)     /* sanity cap for the whole run */
#define HOOK_STEP        100            /* instructions between two hook calls */

enum { EXIT_OK = 0, EXIT_USER = 1, EXIT_INTERNAL = 2 };

/* Allocator with a moving cap: the cap is lowered while model code runs. */
typedef struct {
    size_t used;
    size_t limit;
    int hit;                  /* an allocation was refused under the model cap */
    lua_State *L;             /* set once the state exists: to arm the hook on a refusal */
} alloc_state;

/* State of the guard around model code (one Lua state per process). */
typedef struct {
    int depth;                /* nesting of guarded calls; limits belong to the outermost */
    long count;               /* instructions executed so far (counted by the hook) */
    int tripped;              /* a limit fired: error out on every instruction from now on */
    int line;                 /* last line seen in the model chunk (for the messages) */
    char chunk[PATH_MAX + 2];   /* chunkname of the model ("@models/x.lua") */
} guard_state;

static alloc_state MEM = { 0, TOTAL_MAX_MEM, 0, NULL };
static volatile sig_atomic_t last_line;  /* G.line for the CPU timer's message */
static guard_state G;
static int internal_error;   /* set by msgh: the error is the generator's, not the model's */

static void count_hook(lua_State *L, lua_Debug *ar);

static void *l_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    alloc_state *a = ud;
    if (ptr == NULL)
        osize = 0;            /* then osize only encodes the object type */
    if (nsize == 0) {
        free(ptr);
        a->used -= osize;
        return NULL;
    }
    if (nsize > osize && a->used + (nsize - osize) > a->limit) {
        a->hit = 1;
        /* Stop the model at its next instruction even if it catches the error with pcall
         * (lua_sethook may be called asynchronously, so also from inside an allocation). */
        if (a->L != NULL && a->limit < TOTAL_MAX_MEM)
            lua_sethook(a->L, count_hook, LUA_MASKCOUNT, 1);
        return NULL;          /* Lua collects garbage and retries, then raises LUA_ERRMEM */
    }
    void *p = realloc(ptr, nsize);
    if (p != NULL)
        a->used = a->used - osize + nsize;
    return p;
}

/* The model file's name without the leading '@'. */
static const char *chunk_file(void)
{
    return G.chunk[0] == '@' ? G.chunk + 1 : G.chunk;
}

static const char *limit_text(void)
{
    return MEM.hit ? "model exceeded the memory limit (" MEM_TEXT ")"
                   : "model exceeded the instruction limit (50 million instructions)";
}

/* Push "file:line: error: <limit>" (or "file: error: ..." when no line is known). */
static void push_limit_message(lua_State *L)
{
    if (G.line > 0)
        lua_pushfstring(L, "%s:%d: error: %s", chunk_file(), G.line, limit_text());
    else
        lua_pushfstring(L, "%s: error: %s", chunk_file(), limit_text());
}

/* Count hook: remember where the model is (innermost frame of the model file, for the
 * messages), and stop it when a limit is exceeded. Once a limit fired the hook runs on every
 * instruction, so a pcall in the model cannot go on. */
static void count_hook(lua_State *L, lua_Debug *ar)
{
    lua_Debug d;
    if (ar->event == LUA_HOOKCALL && !MEM.hit) {
        /* A call from the model file (string.rep, a statement...): remember its line, so a
         * memory error raised inside the callee names the right line. */
        if (lua_getstack(L, 1, &d) && lua_getinfo(L, "Sl", &d) && d.currentline > 0 &&
            strcmp(d.source, G.chunk) == 0) {
            G.line = d.currentline;
            last_line = d.currentline;
        }
        return;
    }
    if (ar->event == LUA_HOOKCALL)
        return;
    /* After a refused allocation keep the line of the call that hit the cap; after a limit
     * fired keep the line where it fired (the unwinding runs the generator's own code, e.g.
     * the shield around a statement, whose caller is an outer line of the model). */
    for (int level = 0; !MEM.hit && !G.tripped && level < 64 && lua_getstack(L, level, &d); level++) {
        if (lua_getinfo(L, "Sl", &d) && d.currentline > 0 && strcmp(d.source, G.chunk) == 0) {
            G.line = d.currentline;
            last_line = d.currentline;
            break;
        }
    }
    G.count += G.tripped ? 1 : HOOK_STEP;
    if (G.tripped || MEM.hit || G.count > MODEL_MAX_INSTR) {
        if (!G.tripped) {
            G.tripped = 1;
            lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
        }
        push_limit_message(L);
        lua_error(L);
    }
}

/* CPU timer: a C function of the Lua library (a pathological pattern match) cannot be
 * interrupted by the hook, so the process ends here; nothing has been written yet. */
static void cpu_alarm(int sig)
{
    static const char what[] = ": error: model exceeded the CPU time limit (" CPU_TEXT ")\n";
    char num[24];
    int n = (int)sizeof num, line = (int)last_line;
    ssize_t r;
    (void)sig;
    r = write(2, chunk_file(), strlen(chunk_file()));
    if (line > 0) {           /* ":<line>" without stdio (async-signal-safe) */
        do {
            num[--n] = (char)('0' + line % 10);
            line /= 10;
        } while (line > 0 && n > 1);
        num[--n] = ':';
        r = write(2, num + n, sizeof num - (size_t)n);
    }
    r = write(2, what, sizeof what - 1);
    (void)r;
    _exit(EXIT_USER);
}

static void set_cpu_timer(int seconds)
{
    struct itimerval it;
    memset(&it, 0, sizeof it);
    it.it_value.tv_sec = seconds;
    setitimer(ITIMER_VIRTUAL, &it, NULL);
}

/* mbgen.guard(chunkname, f, ...) -> true, results... | false, err
 * Calls f under the model limits (instructions, memory, CPU time). A limit error is
 * returned as "file:line: error: ..."; other errors are returned as raised. */
static int h_guard(lua_State *L)
{
    const char *chunk = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    int nargs = lua_gettop(L) - 2;
    int outer = (G.depth == 0);
    if (outer) {
        snprintf(G.chunk, sizeof G.chunk, "%s", chunk);
        G.count = 0;
        G.tripped = 0;
        G.line = 0;
        last_line = 0;
        MEM.hit = 0;
        lua_gc(L, LUA_GCCOLLECT);
        MEM.limit = MEM.used + MODEL_MAX_MEM;
        signal(SIGVTALRM, cpu_alarm);
        set_cpu_timer(MODEL_MAX_CPU_S);
        lua_sethook(L, count_hook, LUA_MASKCOUNT | LUA_MASKCALL, HOOK_STEP);
    }
    G.depth++;
    int status = lua_pcall(L, nargs, LUA_MULTRET, 0);
    G.depth--;
    if (outer) {
        lua_sethook(L, NULL, 0, 0);
        set_cpu_timer(0);
        MEM.limit = TOTAL_MAX_MEM;
    }
    if (outer && (MEM.hit || G.tripped)) {
        /* A limit fired, even if the model caught the error: report the limit. */
        lua_settop(L, 0);
        lua_pushboolean(L, 0);
        push_limit_message(L);
        MEM.hit = 0;
        G.tripped = 0;
        return 2;
    }
    lua_pushboolean(L, status == LUA_OK);
    lua_replace(L, 1);        /* stack: ok, results... or ok, error */
    return lua_gettop(L);
}

/* mbgen.clock() -> seconds of a monotonic clock */
static int h_clock(lua_State *L)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    lua_pushnumber(L, (lua_Number)ts.tv_sec + 1e-9 * (lua_Number)ts.tv_nsec);
    return 1;
}

/* The output directory: an existing writable directory, or a new last component under an
 * existing writable parent (mbgen creates no more than that: a typo in -o must not create a
 * tree). create: make the last component. Returns 0, or an errno value with what[] naming
 * the path at fault. */
static int out_dir(const char *dir, int create, char *what, size_t wn)
{
    struct stat st;
    snprintf(what, wn, "%s", dir);
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return ENOTDIR;
        return access(dir, W_OK) != 0 ? errno : 0;
    }
    if (errno != ENOENT)
        return errno;
    char parent[PATH_MAX];
    if (snprintf(parent, sizeof parent, "%s", dir) >= (int)sizeof parent)
        return ENAMETOOLONG;
    size_t n = strlen(parent);
    while (n > 1 && parent[n - 1] == '/')
        parent[--n] = '\0';
    char *slash = strrchr(parent, '/');
    if (slash == NULL)
        snprintf(parent, sizeof parent, ".");
    else if (slash == parent)
        parent[1] = '\0';
    else
        *slash = '\0';
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode)) {
        int e = errno;
        snprintf(what, wn, "%s", parent);
        return stat(parent, &st) == 0 ? ENOTDIR : e;
    }
    if (access(parent, W_OK) != 0) {
        int e = errno;
        snprintf(what, wn, "%s", parent);
        return e;
    }
    if (create && mkdir(dir, 0777) != 0 && errno != EEXIST)
        return errno;
    return 0;
}

/* The message for out_dir's error e (what: the path at fault). */
static void out_dir_message(char *msg, size_t mn, const char *dir, const char *what, int e)
{
    if (strcmp(what, dir) != 0 && e == ENOENT)
        snprintf(msg, mn, "cannot write to directory '%s': its parent '%s' does not exist "
                 "(mbgen creates only the last component of -o DIR)", dir, what);
    else if (strcmp(what, dir) != 0)
        snprintf(msg, mn, "cannot write to directory '%s': '%s': %s", dir, what, strerror(e));
    else
        snprintf(msg, mn, "cannot write to directory '%s': %s", dir, strerror(e));
}

/* mbgen.prepare_dir(dir) -> true | nil, message. Checks that dir can be written (creates
 * nothing: the files and a new directory are written at the end, all or nothing). */
static int h_prepare_dir(lua_State *L)
{
    const char *dir = luaL_checkstring(L, 1);
    char what[PATH_MAX], msg[3 * PATH_MAX];
    int e = out_dir(dir, 0, what, sizeof what);
    if (e != 0) {
        out_dir_message(msg, sizeof msg, dir, what, e);
        lua_pushnil(L);
        lua_pushstring(L, msg);
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* 1 when the file at path starts with mbgen's banner ("Generated by mbgen" in the leading
 * comment, the first 512 bytes): a file mbgen may replace. */
static int is_generated(const char *path)
{
    char buf[513];
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    if (strncmp(buf, "/*", 2) != 0)
        return 0;
    char *end = strstr(buf, "*/\n#");   /* the banner's comments end before the first line of C */
    char *mark = strstr(buf, " * Generated by mbgen ");
    return mark != NULL && (end == NULL || mark < end);
}

int mbgen_plan(lua_State *L);   /* mbgen_plan.c */

static const luaL_Reg host_funcs[] = {
    { "plan", mbgen_plan },
    { "guard", h_guard },
    { "clock", h_clock },
    { "prepare_dir", h_prepare_dir },
    { NULL, NULL }
};

/* Message handler: user errors ("...: error: ...") pass unchanged, others get a traceback. */
static int msgh(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    const char *nl = strchr(msg, '\n');
    const char *e = strstr(msg, ": error: ");
    if (e != NULL && (nl == NULL || e < nl)) {
        lua_pushstring(L, msg);
        return 1;
    }
    internal_error = 1;
    luaL_traceback(L, L, msg, 1);
    lua_pushstring(L, "\nmbgen: internal error (a bug in the generator, not in the model)");
    lua_concat(L, 2);
    return 1;
}

/* 1 if dir/generator/main.lua is readable; then out = dir/generator. */
static int try_datadir(const char *dir, char *out, size_t n)
{
    char cand[PATH_MAX + 32];
    if (dir == NULL || dir[0] == '\0' || strlen(dir) > PATH_MAX - 32)
        return 0;
    snprintf(cand, sizeof cand, "%s/generator/main.lua", dir);
    if (access(cand, R_OK) != 0)
        return 0;
    snprintf(out, n, "%.4000s/generator", dir);
    return 1;
}

/* The directory of the Lua modules (main.lua ...); templates/ is its sibling (ctext.lua). The
 * data directory holding both is, in this order: $MBGEN_DATADIR (an explicit choice: when it
 * holds no generator, nothing else is tried); beside the executable, <exe>/.. (build/mbgen in
 * the source tree; not for an installed mbgen) and <exe>/../share/mbgen (an installed mbgen,
 * also staged under DESTDIR or moved with its prefix); the compiled-in MBGEN_DATADIR.
 * Returns 0, or -1 with out set to the last candidate (the caller's error names it). */
static int find_gendir(char *out, size_t n)
{
    const char *env = getenv("MBGEN_DATADIR");
    if (env != NULL && env[0] != '\0') {
        if (try_datadir(env, out, n))
            return 0;
        snprintf(out, n, "%.3000s/generator", env);
        return -1;
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');      /* exe = the executable's directory's parent: */
        if (slash != NULL) {                  /* /usr/local/bin/mbgen -> /usr/local */
            *slash = '\0';
            slash = strrchr(exe, '/');
        }
        if (slash != NULL) {
            char cand[PATH_MAX + 32];
            *slash = '\0';
#ifndef MBGEN_INSTALLED
            if (try_datadir(exe, out, n))
                return 0;
#endif
            snprintf(cand, sizeof cand, "%.3000s/share/mbgen", exe);
            if (try_datadir(cand, out, n))
                return 0;
        }
    }
    if (try_datadir(MBGEN_DATADIR, out, n))
        return 0;
    snprintf(out, n, "%s/generator", MBGEN_DATADIR);
    return -1;
}

static int read_file(const char *path, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *nb = realloc(buf, cap *= 2);
        if (nb == NULL)
            free(buf);
        buf = nb;
    }
    int err = ferror(f);
    fclose(f);
    if (buf == NULL || err) {
        free(buf);
        return -1;
    }
    *data = buf;
    *len = n;
    return 0;
}

/* 1 if the file at path holds exactly content. */
static int same_content(const char *path, const char *content, size_t len)
{
    char *old;
    size_t olen;
    if (read_file(path, &old, &olen) != 0)
        return 0;
    int same = (olen == len && memcmp(old, content, len) == 0);
    free(old);
    return same;
}

/* Write the files listed in the table at index idx into dir, all or nothing: every changed
 * file goes to a temporary first; an existing destination that is not a regular file stops
 * everything before any rename; each replaced file is kept as a hard link until all renames
 * succeeded, and a failed rename puts the earlier ones back. */
static int write_outputs(lua_State *L, int idx, const char *dir, int verbose, int force)
{
    char what[PATH_MAX];
    int n = (int)luaL_len(L, idx);
    char (*tmp)[PATH_MAX] = calloc((size_t)n + 1, sizeof *tmp);
    char (*dst)[PATH_MAX] = calloc((size_t)n + 1, sizeof *dst);
    char (*old)[PATH_MAX] = calloc((size_t)n + 1, sizeof *old);   /* backups ("" when new) */
    int ok = 1, nw = 0, e = 0;
    if (tmp == NULL || dst == NULL || old == NULL) {
        fprintf(stderr, "mbgen: error: out of memory\n");
        ok = 0;
    }
    /* before anything is written: the directory (at most its last component is created) and
     * no file in the way that mbgen did not write (a model named "main" and the user's main.c) */
    struct stat dst_st;
    int existed = stat(dir, &dst_st) == 0;
    for (int i = 1; ok && i <= n; i++) {
        char path[PATH_MAX];
        lua_geti(L, idx, i);
        lua_getfield(L, -1, "name");
        lua_getfield(L, -2, "content");
        const char *name = lua_tostring(L, -2);
        size_t len;
        const char *content = lua_tolstring(L, -1, &len);
        if (!force && name != NULL && content != NULL &&
            snprintf(path, sizeof path, "%s/%s", dir, name) < (int)sizeof path &&
            stat(path, &dst_st) == 0 && S_ISREG(dst_st.st_mode) &&
            !same_content(path, content, len) && !is_generated(path)) {
            fprintf(stderr, "mbgen: error: '%s' exists and was not written by mbgen (no "
                    "\"Generated by mbgen\" banner at its top): not replaced, no file written "
                    "(--force replaces it)\n", path);
            ok = 0;
        }
        lua_pop(L, 3);
    }
    if (ok && (e = out_dir(dir, 1, what, sizeof what)) != 0) {
        char msg[3 * PATH_MAX];
        out_dir_message(msg, sizeof msg, dir, what, e);
        fprintf(stderr, "mbgen: error: %s\n", msg);
        ok = 0;
    }
    for (int i = 1; ok && i <= n; i++) {
        lua_geti(L, idx, i);
        lua_getfield(L, -1, "name");
        lua_getfield(L, -2, "content");
        const char *name = lua_tostring(L, -2);
        size_t len;
        const char *content = lua_tolstring(L, -1, &len);
        if (name == NULL || content == NULL || name[0] == '\0' || name[0] == '.' ||
            strchr(name, '/') != NULL) {
            fprintf(stderr, "mbgen: error: internal: bad output file entry %d\n", i);
            lua_pop(L, 3);
            ok = 0;
            break;
        }
        snprintf(dst[nw], PATH_MAX, "%s/%s", dir, name);
        struct stat st;
        if (stat(dst[nw], &st) == 0 && !S_ISREG(st.st_mode)) {
            fprintf(stderr, "mbgen: error: cannot write '%s': it exists and is not a regular file\n",
                    dst[nw]);
            lua_pop(L, 3);
            ok = 0;
            break;
        }
        if (same_content(dst[nw], content, len)) {
            if (verbose)
                fprintf(stderr, "mbgen: %s unchanged\n", dst[nw]);
            lua_pop(L, 3);
            continue;
        }
        snprintf(tmp[nw], PATH_MAX, "%s.tmp%ld", dst[nw], (long)getpid());
        FILE *f = fopen(tmp[nw], "wb");
        if (f == NULL || fwrite(content, 1, len, f) != len || fclose(f) != 0) {
            fprintf(stderr, "mbgen: error: cannot write '%s': %s\n", dst[nw], strerror(errno));
            if (f != NULL)
                unlink(tmp[nw]);
            ok = 0;
        } else {
            nw++;
        }
        lua_pop(L, 3);
    }
    /* keep every file about to be replaced (a hard link), so a failed rename can undo */
    for (int i = 0; ok && i < nw; i++) {
        struct stat st;
        if (lstat(dst[i], &st) != 0)
            continue;          /* a new file */
        snprintf(old[i], PATH_MAX, "%s.old%ld", dst[i], (long)getpid());
        if (link(dst[i], old[i]) != 0) {
            fprintf(stderr, "mbgen: error: cannot keep '%s' while replacing it: %s\n", dst[i],
                    strerror(errno));
            old[i][0] = '\0';
            ok = 0;
        }
    }
    int done = 0;
    for (; ok && done < nw; done++) {
        if (rename(tmp[done], dst[done]) != 0) {
            fprintf(stderr, "mbgen: error: cannot rename to '%s': %s (no file changed)\n",
                    dst[done], strerror(errno));
            ok = 0;
            break;
        }
    }
    for (int i = 0; i < nw; i++) {
        if (!ok && i < done) {     /* undo: the old file back, or remove the new one */
            if (old[i][0] ? rename(old[i], dst[i]) != 0 : unlink(dst[i]) != 0)
                fprintf(stderr, "mbgen: error: cannot restore '%s': %s\n", dst[i], strerror(errno));
            old[i][0] = '\0';
        }
        if (!ok && i >= done)
            unlink(tmp[i]);
        if (old[i][0])
            unlink(old[i]);
        if (ok && verbose)
            fprintf(stderr, "mbgen: wrote %s\n", dst[i]);
    }
    if (!ok && !existed)
        rmdir(dir);            /* the directory this run created, when nothing is left in it */
    free(tmp);
    free(dst);
    free(old);
    return ok;
}

#ifndef MBGEN_NO_MAIN   /* the fuzz target includes this file and has its own entry point */
/* mbgen --fmu: the data directory's scripts/fmu_pack.sh (beside generator/, in the source tree
 * and installed) packs the generated model `name` from dir into out with the settings text
 * (lines key=value); its messages go to stderr, nothing is left at out when it fails. The
 * library is built -O2 (make fmu's FMU_OPT), with $CC (default cc). 1 on success. */
static int pack_fmu(const char *gendir, const char *name, const char *dir, const char *settings,
                    const char *out)
{
    char script[PATH_MAX + 32], sfile[PATH_MAX];
    size_t root = strlen(gendir) - strlen("/generator");   /* gendir is <datadir>/generator */
    snprintf(script, sizeof script, "%.*s/scripts/fmu_pack.sh", (int)root, gendir);
    if (access(script, X_OK) != 0) {
        fprintf(stderr, "mbgen: error: --fmu %s: no FMU packer at %s (%s)\n", out, script, strerror(errno));
        return 0;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(sfile, sizeof sfile, "%.3000s/mbgen_fmu.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(sfile);
    size_t len = strlen(settings);
    if (fd < 0 || write(fd, settings, len) != (ssize_t)len) {
        fprintf(stderr, "mbgen: error: --fmu %s: cannot write the settings file %s: %s\n", out, sfile,
                strerror(errno));
        if (fd >= 0) { close(fd); unlink(sfile); }
        return 0;
    }
    close(fd);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("OPT", "-O2", 1);
        execl(script, script, name, dir, sfile, out, (char *)NULL);
        fprintf(stderr, "mbgen: error: --fmu: cannot run %s: %s\n", script, strerror(errno));
        _exit(127);
    }
    int status = 0, ok = 0;
    if (pid < 0)
        fprintf(stderr, "mbgen: error: --fmu: cannot start the packer: %s\n", strerror(errno));
    else if (waitpid(pid, &status, 0) != pid)
        fprintf(stderr, "mbgen: error: --fmu: waiting for the packer: %s\n", strerror(errno));
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fprintf(stderr, "mbgen: error: --fmu %s: the FMU was not built (%s %s %d)\n", out, script,
                WIFEXITED(status) ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    else
        ok = 1;
    unlink(sfile);
    return ok;
}

int main(int argc, char **argv)
{
    char gendir[PATH_MAX], mainpath[PATH_MAX + 16];
    lua_State *L = lua_newstate(l_alloc, &MEM);
    if (L == NULL) {
        fprintf(stderr, "mbgen: error: cannot create the Lua state\n");
        return EXIT_INTERNAL;
    }
    MEM.L = L;
    luaL_openlibs(L);
    if (find_gendir(gendir, sizeof gendir) != 0) {
        fprintf(stderr, "mbgen: error: cannot find the generator's Lua modules (no %s/main.lua); "
                "set MBGEN_DATADIR to the directory holding generator/ and templates/ "
                "(installed: PREFIX/share/mbgen)\n", gendir);
        lua_close(L);
        return EXIT_INTERNAL;
    }

    /* Module path: only the generator directory (LUA_PATH, LUA_CPATH and LUA_INIT ignored). */
    lua_getglobal(L, "package");
    lua_pushfstring(L, "%s/?.lua", gendir);
    lua_setfield(L, -2, "path");
    lua_pushliteral(L, "");
    lua_setfield(L, -2, "cpath");
    lua_pop(L, 1);

    lua_pushcfunction(L, msgh);
    int hidx = lua_gettop(L);
    snprintf(mainpath, sizeof mainpath, "%s/main.lua", gendir);
    if (luaL_loadfilex(L, mainpath, "t") != LUA_OK) {
        fprintf(stderr, "mbgen: error: cannot load the generator: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return EXIT_INTERNAL;
    }
    lua_createtable(L, argc, 0);          /* arg 1: the command-line arguments */
    for (int i = 1; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    luaL_newlib(L, host_funcs);           /* arg 2: host services */
    lua_pushliteral(L, MBGEN_VERSION);
    lua_setfield(L, -2, "version");
    lua_pushinteger(L, MB_MODEL_INTERFACE);
    lua_setfield(L, -2, "model_interface");
    lua_pushstring(L, gendir);
    lua_setfield(L, -2, "gendir");
    lua_pushliteral(L, LUA_RELEASE);
    lua_setfield(L, -2, "lua");

    int rc = EXIT_OK;
    int status = lua_pcall(L, 2, 1, hidx);
    if (status == LUA_ERRMEM) {           /* the message handler is not called for these */
        fprintf(stderr, "mbgen: internal error: out of memory (limit %zu MiB)\n",
                TOTAL_MAX_MEM >> 20);
        rc = EXIT_INTERNAL;
    } else if (status != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        int user = msg != NULL && !internal_error;   /* (a model's text cannot fake it) */
        fprintf(stderr, "%s\n", msg ? msg : "mbgen: error: unknown error");
        rc = user ? EXIT_USER : EXIT_INTERNAL;
    } else if (lua_istable(L, -1)) {      /* { dir = "...", verbose = bool, files = {...} } */
        int res = lua_gettop(L);
        lua_getfield(L, res, "dir");
        lua_getfield(L, res, "verbose");
        lua_getfield(L, res, "force");
        lua_getfield(L, res, "files");
        const char *dir = lua_tostring(L, -4);
        if (dir == NULL || !lua_istable(L, -1)) {
            fprintf(stderr, "mbgen: error: internal: main.lua returned a bad result\n");
            rc = EXIT_INTERNAL;
        } else if (!write_outputs(L, lua_gettop(L), dir, lua_toboolean(L, -3),
                                  lua_toboolean(L, -2))) {
            rc = EXIT_USER;
        } else {
            lua_getfield(L, res, "fmu");
            lua_getfield(L, res, "fmu_name");
            lua_getfield(L, res, "fmu_settings");
            const char *fmu = lua_tostring(L, -3), *name = lua_tostring(L, -2), *set = lua_tostring(L, -1);
            if (fmu != NULL && (name == NULL || set == NULL)) {
                fprintf(stderr, "mbgen: error: internal: main.lua returned a bad --fmu result\n");
                rc = EXIT_INTERNAL;
            } else if (fmu != NULL && !pack_fmu(gendir, name, dir, set, fmu)) {
                rc = EXIT_USER;
            }
        }
    }
    lua_close(L);
    return rc;
}
#endif /* MBGEN_NO_MAIN */
