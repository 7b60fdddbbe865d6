/* test_sym.c - runs tests/test_sym.lua (unit tests of generator/sym.lua and the template filler)
 * in an embedded Lua 5.4 state whose module path is generator/, like mbgen's.
 * The Lua file prints "N passed, N failed" and returns the failure count. */
#include <stdio.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

int main(void)
{
    lua_State *L = luaL_newstate();
    if (!L) { fprintf(stderr, "test_sym: cannot create a Lua state\n"); return 2; }
    luaL_openlibs(L);
    /* generator modules only, never LUA_PATH */
    lua_getglobal(L, "package");
    lua_pushstring(L, "generator/?.lua");
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
    int rc = 1;
    if (luaL_dofile(L, "tests/test_sym.lua") != LUA_OK) {
        fprintf(stderr, "test_sym: %s\n0 passed, 1 failed\n", lua_tostring(L, -1));
        printf("0 passed, 1 failed\n");
    } else {
        rc = lua_tointeger(L, -1) != 0;
    }
    lua_close(L);
    return rc;
}
