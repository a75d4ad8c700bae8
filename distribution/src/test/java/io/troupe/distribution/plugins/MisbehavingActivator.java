package io.troupe.distribution.plugins;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/**
 * The activator of the misbehaving test plugins {@link MisbehavingPlugin} builds: never loaded by the tests
 * themselves, only packed into a bundle for the distribution to run. The bundle's manifest says what it does:
 *
 * <ul>
 *   <li>{@code Misbehaviour: block}: its start waits for ever on a latch (interruptible);</li>
 *   <li>{@code Misbehaviour: spin}: its start spins for ever, ignoring interrupts;</li>
 *   <li>{@code Misbehaviour: exit}: its start calls {@code System.exit(3)};</li>
 *   <li>{@code Misbehaviour: none}: its start returns at once.</li>
 * </ul>
 * With {@code Leaked-Thread: <name>}, it first starts a thread of that name that never ends (it ignores
 * interrupts), before it does the above; its stop does not end it.
 *
 * <p><b>Threading:</b> called by the framework on whichever thread starts the bundle.
 */
public final class MisbehavingActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) throws InterruptedException {
        String leaked = context.getBundle().getHeaders().get("Leaked-Thread");
        if (leaked != null) {
            Thread thread = new Thread(MisbehavingActivator::parkForEver, leaked);
            thread.setDaemon(true);
            thread.start();
        }
        String misbehaviour = context.getBundle().getHeaders().get("Misbehaviour");
        if ("block".equals(misbehaviour)) {
            new CountDownLatch(1).await();
        } else if ("spin".equals(misbehaviour)) {
            spin();
        } else if ("exit".equals(misbehaviour)) {
            System.exit(3);
        }
    }

    private static void spin() {
        long turns = 0;
        while (turns >= 0) {
            turns++;
            Thread.onSpinWait();
        }
    }

    private static void parkForEver() {
        while (true) {
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
        }
    }

    @Override
    public void stop(BundleContext context) {
        // leaves the leaked thread running, as the plugins this stands for do
    }
}
