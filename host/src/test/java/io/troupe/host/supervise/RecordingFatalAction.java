package io.troupe.host.supervise;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A {@link FatalErrors.FatalAction} for tests: records each fatal error with its thread and what it was
 * doing, and returns (so the caller throws the error on) instead of halting the test's JVM. Installed by
 * {@link #install}, removed by {@link #close}.
 *
 * <p><b>Threading:</b> {@link #onFatal} from any thread; the rest from the test's thread.
 */
public final class RecordingFatalAction implements FatalErrors.FatalAction, AutoCloseable {

    /** One fatal error as the action heard it. */
    public record Fatal(String thread, String doing, Throwable error) {
    }

    private final List<Fatal> heard = new CopyOnWriteArrayList<>();
    private final CountDownLatch first = new CountDownLatch(1);
    private FatalErrors.FatalAction previous;

    private RecordingFatalAction() {
    }

    /** Makes a new recording action the process's action. */
    public static RecordingFatalAction install() {
        RecordingFatalAction action = new RecordingFatalAction();
        action.previous = FatalErrors.install(action);
        return action;
    }

    @Override
    public void onFatal(Thread thread, String doing, Throwable error) {
        heard.add(new Fatal(thread.getName(), doing, error));
        first.countDown();
    }

    /** The first fatal error, waiting up to {@code seconds} for it; fails if none came. */
    public Fatal awaitFirst(long seconds) throws InterruptedException {
        if (!first.await(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("no fatal error within " + seconds + " s");
        }
        return heard.get(0);
    }

    public List<Fatal> heard() {
        return List.copyOf(heard);
    }

    @Override
    public void close() {
        FatalErrors.uninstall(this, previous);
    }
}
