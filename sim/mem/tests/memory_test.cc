#include "sim/mem/memory.h"
#include <gtest/gtest.h>
TEST(Mem, Builds) {}
