package io.troupe.host.deploy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The live threads that run a plugin revision's code or were started for it, found without the plugin's
 * help, so that a plugin uninstalled or updated while some of its threads still run can be reported with
 * them (the JVM cannot end them safely: they are leaked, and they keep the revision's classes loaded).
 *
 * <p>A thread counts as the revision's when any of these holds:
 * <ul>
 *   <li>it belongs to the plugin's thread group (or a group under it): every thread started from the
 *       plugin's activator, its Declarative Services activation or its stop, which the deployer runs in
 *       that group ({@link BundleAction});</li>
 *   <li>its context class loader is the revision's class loader: threads started from an actor's
 *       {@code receive} (the runtime sets it for every turn), from a thread started by the activator, or by
 *       an executor created there;</li>
 *   <li>it is an instance of a {@link Thread} subclass defined by the revision.</li>
 * </ul>
 * A worker still running one of the revision's actors (stuck in {@code receive}) counts too: it is busy
 * with the revision's code.
 *
 * <p>The context class loader is read with {@link Thread#getContextClassLoader()}, which under a security
 * manager needs a permission the host has; nothing else is asked of the JVM.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class PluginThreads {

    /** Frames shown per thread in a report. */
    static final int FRAMES = 12;

    private PluginThreads() {
    }

    /**
     * The live threads of a revision, by name.
     *
     * @param loader  the revision's class loader; {@code null} when the revision had none (never resolved)
     * @param group   the plugin's thread group; {@code null} if it never had one
     * @param ignored threads that are not to be counted (the deployer's own actions)
     */
    static List<Thread> of(ClassLoader loader, ThreadGroup group, Set<Thread> ignored) {
        List<Thread> found = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread == Thread.currentThread() || ignored.contains(thread) || !thread.isAlive()) {
                continue;
            }
            if (inGroup(thread, group) || (loader != null && (thread.getContextClassLoader() == loader
                    || thread.getClass().getClassLoader() == loader))) {
                found.add(thread);
            }
        }
        found.sort(Comparator.comparing(Thread::getName));
        return found;
    }

    private static boolean inGroup(Thread thread, ThreadGroup group) {
        if (group == null) {
            return false;
        }
        for (ThreadGroup g = thread.getThreadGroup(); g != null; g = g.getParent()) {
            if (g == group) {
                return true;
            }
        }
        return false;
    }

    /**
     * A thread as a log report shows it: {@code "name" STATE}, then its top {@value #FRAMES} frames as
     * {@code \tat frame} lines.
     */
    static String describe(Thread thread) {
        StringBuilder text = new StringBuilder(256);
        text.append('"').append(thread.getName()).append("\" ").append(thread.getState());
        StackTraceElement[] stack = thread.getStackTrace();
        int frames = Math.min(stack.length, FRAMES);
        for (int i = 0; i < frames; i++) {
            text.append(System.lineSeparator()).append("\tat ").append(stack[i]);
        }
        if (stack.length > frames) {
            text.append(System.lineSeparator()).append("\t... ").append(stack.length - frames).append(" more");
        }
        return text.toString();
    }

    /** Several threads, one {@link #describe} after the other. */
    static String describe(List<Thread> threads) {
        StringBuilder text = new StringBuilder();
        for (Thread thread : threads) {
            text.append(System.lineSeparator()).append(describe(thread));
        }
        return text.toString();
    }
}
