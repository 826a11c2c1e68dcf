/*
** thread.h — the mutex the driver's handles carry.
**
** The only threading primitive Lector needs.  POSIX here; a Windows build
** maps it to a CRITICAL_SECTION in this header alone.
*/
#ifndef LT_THREAD_H
#define LT_THREAD_H

#include <pthread.h>

typedef struct lt_mutex {
    pthread_mutex_t m;
} lt_mutex;

static inline void lt_mutex_init(lt_mutex *mu)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    /* Recursive: an entry point may call another (SQLFetch -> SQLFetchScroll,
    ** W wrappers -> ANSI) on the same handle. */
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&mu->m, &attr);
    pthread_mutexattr_destroy(&attr);
}
static inline void lt_mutex_destroy(lt_mutex *mu) { pthread_mutex_destroy(&mu->m); }
static inline void lt_mutex_lock(lt_mutex *mu) { pthread_mutex_lock(&mu->m); }
static inline void lt_mutex_unlock(lt_mutex *mu) { pthread_mutex_unlock(&mu->m); }

#endif /* LT_THREAD_H */
