/* spawnmatrix-true: exits 0 at once. The cheapest exec target, so benchmarks measure the
 * spawn and not the child. Built with SPAWNMATRIX_FREESTANDING (and -nostdlib) on Linux
 * x86_64/aarch64 it has no libc at all: its entry point makes the exit_group syscall. */
#if defined(SPAWNMATRIX_FREESTANDING) && defined(__linux__) && defined(__x86_64__)
void _start(void)
{
    __asm__ volatile("mov $231, %%eax\n\txor %%edi, %%edi\n\tsyscall" ::: "rax", "rdi", "rcx",
                     "r11", "memory");
    for (;;)
        ;
}
#elif defined(SPAWNMATRIX_FREESTANDING) && defined(__linux__) && defined(__aarch64__)
void _start(void)
{
    __asm__ volatile("mov x0, #0\n\tmov x8, #94\n\tsvc #0" ::: "x0", "x8", "memory");
    for (;;)
        ;
}
#else
#include <unistd.h>

int main(void)
{
    _exit(0);
}
#endif
