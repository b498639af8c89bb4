/* spawnmatrix-true: exits 0 at once. The smallest exec target, so benchmarks measure the
 * spawn and not the child. */
#include <unistd.h>

int main(void)
{
    _exit(0);
}
