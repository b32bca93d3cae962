// A project header of constants (not a system header): its literals are
// reported where they promote, but not rewritten from another file.
#pragma once
#define PI_D 3.14159265358979
#define ONE_OVER_PI (1.0 / PI_D)
