package io.troupe.host.reactor;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where TLS handshakes' delegated tasks run ({@link javax.net.ssl.SSLEngine#getDelegatedTask}): key
 * exchange, signatures and certificate checks, the CPU-heavy part of a handshake, kept off the IO
 * loops. Threads {@code troupe-tls-N}, daemons, as many as cores, started on demand and ended after
 * {@value #IDLE_SECONDS} s idle; at most {@value #QUEUE} handshakes wait, beyond which
 * {@link #execute} refuses and the connection is closed: a handshake flood costs its attackers
 * connections, never the server's memory.
 *
 * <p><b>Threading:</b> {@link #execute} from any thread; {@link #shutdown} once, by the reactor.
 */
final class TlsTaskExecutor implements Executor {

    static final int QUEUE = 4096;
    static final int IDLE_SECONDS = 30;

    private final ThreadPoolExecutor pool;

    TlsTaskExecutor() {
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        AtomicInteger count = new AtomicInteger();
        pool = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), runnable -> {
                    Thread thread = new Thread(runnable, "troupe-tls-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
    }

    @Override
    public void execute(Runnable task) {
        pool.execute(task);
    }

    void shutdown() {
        pool.shutdownNow();
    }
}
