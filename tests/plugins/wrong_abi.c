/*
 * wrong_abi.c - a plug-in that claims a future version of the interface.
 * Its object is written by hand, as a plug-in built against another
 * header would have it; the program must refuse it before reading
 * anything else, saying both versions.
 */
#include <shufflebias/plugin.h>

__attribute__((visibility("default"))) extern const sb_plugin
    shufflebias_plugin;
const sb_plugin shufflebias_plugin = {
    SB_PLUGIN_ABI + 1, (uint32_t)sizeof(sb_shuffle_type), NULL
};
