/* The benchmark's vfork. Rust cannot call vfork soundly (it returns twice, and Rust has no
 * returns_twice attribute), so this C function calls it and runs the child's steps through a
 * callback that never returns: the child never leaves this frame, and the parent resumes in
 * it as vfork returns. */
#include <sys/types.h>
#include <unistd.h>

pid_t spawnmatrix_bench_vfork(int (*child)(void *), void *arg)
{
    pid_t pid = vfork();
    if (pid == 0) {
        child(arg);
        _exit(127);
    }
    return pid;
}
