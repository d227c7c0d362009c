/* The header must survive being included twice (include guard) and compile as strict C99. */
#include "sinew.h"
#include "sinew.h"

int main(void) {
    SinewWorldDesc desc;
    /* Touch a type, a constant and a function so that the link is checked too. */
    return sinew_world_desc_default(&desc) == SINEW_OK && sinew_abi_version() == SINEW_ABI_VERSION ? 0 : 1;
}
