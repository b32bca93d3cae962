// An index helper defined in a header: other translation units expand it too.
#define HDR_ROW(i) ((i) / 64)
