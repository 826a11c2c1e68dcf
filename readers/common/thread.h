/*
** thread.h — the mutex the driver's handles carry.
**
** The only threading primitive Lector needs: a recursive mutex, because an
** entry point may call another (SQLFetch -> SQLFetchScroll, W wrappers ->
** ANSI) on the same handle.  POSIX threads, or on Windows a CRITICAL_SECTION
** (recursive by nature); nothing else in Lector names either.
*/
#ifndef LT_THREAD_H
#define LT_THREAD_H

#ifdef _WIN32

#include <windows.h>

typedef struct lt_mutex {
    CRITICAL_SECTION cs;
} lt_mutex;

static inline void lt_mutex_init(lt_mutex *mu) { InitializeCriticalSection(&mu->cs); }
static inline void lt_mutex_destroy(lt_mutex *mu) { DeleteCriticalSection(&mu->cs); }
static inline void lt_mutex_lock(lt_mutex *mu) { EnterCriticalSection(&mu->cs); }
static inline void lt_mutex_unlock(lt_mutex *mu) { LeaveCriticalSection(&mu->cs); }

#else

#include <pthread.h>

typedef struct lt_mutex {
    pthread_mutex_t m;
} lt_mutex;

static inline void lt_mutex_init(lt_mutex *mu)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&mu->m, &attr);
    pthread_mutexattr_destroy(&attr);
}
static inline void lt_mutex_destroy(lt_mutex *mu) { pthread_mutex_destroy(&mu->m); }
static inline void lt_mutex_lock(lt_mutex *mu) { pthread_mutex_lock(&mu->m); }
static inline void lt_mutex_unlock(lt_mutex *mu) { pthread_mutex_unlock(&mu->m); }

#endif /* _WIN32 */

#endif /* LT_THREAD_H */
