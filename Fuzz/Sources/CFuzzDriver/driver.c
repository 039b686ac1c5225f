// Nothing to compile: the header declares a function libFuzzer defines. SwiftPM wants a source.
#include "CFuzzDriver.h"
