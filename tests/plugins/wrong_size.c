/*
 * wrong_size.c - a plug-in of the right version whose sb_shuffle_type was
 * smaller (a header edited by hand, or a version that forgot to raise
 * SB_PLUGIN_ABI): the program must refuse it rather than read past the
 * end of its types.
 */
#include <shufflebias/plugin.h>

__attribute__((visibility("default"))) extern const sb_plugin
    shufflebias_plugin;
const sb_plugin shufflebias_plugin = {
    SB_PLUGIN_ABI, (uint32_t)sizeof(sb_shuffle_type) - 8, NULL
};
