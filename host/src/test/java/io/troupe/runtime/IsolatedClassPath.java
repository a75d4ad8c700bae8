package io.troupe.runtime;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import org.apache.felix.metatype.MetaDataReader;
import org.slf4j.LoggerFactory;

import io.troupe.api.ActorFactory;

/**
 * A class loader that sees only what an application gets with {@code io.troupe:troupe-host}: the host's
 * classes (with Troupe's SLF4J provider), the API, slf4j-api and Felix Metatype; no {@code org.osgi.framework},
 * and none of the test's classes. Everything in it is reached by reflection: {@link #start} builds a
 * {@link Troupe} there with one handler, {@link #ask} asks it.
 *
 * <p><b>Threading:</b> one test thread; the actors' {@link Receive} runs on the isolated runtime's workers.
 */
final class IsolatedClassPath implements AutoCloseable {

    /** What a handler of the isolated runtime does with a message: {@code ctx} and {@code message} are its. */
    @FunctionalInterface
    interface Receive {
        void receive(IsolatedClassPath classPath, Object ctx, Object message) throws Exception;
    }

    private final URLClassLoader loader;

    /** @param first class path entries looked at before the runtime's own (another SLF4J provider, say) */
    IsolatedClassPath(URL... first) {
        Set<URL> classPath = new LinkedHashSet<>(List.of(first));
        for (Class<?> type : new Class<?>[] {Troupe.class, ActorFactory.class, LoggerFactory.class,
                MetaDataReader.class}) {
            classPath.add(type.getProtectionDomain().getCodeSource().getLocation());
        }
        loader = new URLClassLoader("isolated", classPath.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    }

    ClassLoader loader() {
        return loader;
    }

    /**
     * Starts a runtime of one worker whose threads are {@code prefix-...}, with {@code receive} as the handler
     * of {@code handlerName}.
     *
     * @return the runtime, an {@link AutoCloseable}
     */
    AutoCloseable start(String prefix, String handlerName, Receive receive) throws Exception {
        Class<?> factoryType = type("io.troupe.api.ActorFactory");
        Class<?> actorType = type("io.troupe.api.Actor");
        Object actor = Proxy.newProxyInstance(loader, new Class<?>[] {actorType}, (proxy, method, args) -> {
            if (method.getName().equals("receive")) {
                receive.receive(this, args[0], args[1]);
                return null;
            }
            return method.isDefault() ? InvocationHandler.invokeDefault(proxy, method, args)
                    : objectMethod(proxy, method, args);
        });
        Object factory = Proxy.newProxyInstance(loader, new Class<?>[] {factoryType},
                (proxy, method, args) -> method.getName().equals("create") ? actor : objectMethod(proxy, method, args));
        Object builder = type(Troupe.class.getName()).getMethod("builder").invoke(null);
        call(builder, "workers", 1);
        call(builder, "threadNamePrefix", prefix);
        builder.getClass().getMethod("handler", String.class, factoryType).invoke(builder, handlerName, factory);
        return (AutoCloseable) call(builder, "build");
    }

    /** Asks the handler of {@code name} in {@code tenant} of {@code runtime} with a Message of {@code text}. */
    Object ask(Object runtime, String tenant, String name, String text) throws Exception {
        Class<?> messageType = type("io.troupe.api.Message");
        Object message = messageType.getMethod("of", String.class, String.class).invoke(null, name, text);
        CompletionStage<?> reply = (CompletionStage<?>) runtime.getClass()
                .getMethod("ask", String.class, messageType, Duration.class)
                .invoke(runtime, tenant, message, Duration.ofSeconds(5));
        return reply.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** The text of a Message of the isolated API. */
    String text(Object message) throws Exception {
        return (String) call(message, "text");
    }

    /** Replies {@code reply} on the isolated ActorContext {@code ctx}. */
    void reply(Object ctx, Object reply) throws Exception {
        type("io.troupe.api.ActorContext").getMethod("reply", Object.class).invoke(ctx, reply);
    }

    /** Logs {@code line} at INFO through the isolated SLF4J, as a plugin's code does. */
    void log(String loggerName, String line) throws Exception {
        Object logger = type("org.slf4j.LoggerFactory").getMethod("getLogger", String.class).invoke(null, loggerName);
        type("org.slf4j.Logger").getMethod("info", String.class).invoke(logger, line);
    }

    /** The class name of the isolated SLF4J's logger factory: whose provider it is bound to. */
    String slf4jFactory() throws Exception {
        return type("org.slf4j.LoggerFactory").getMethod("getILoggerFactory").invoke(null).getClass().getName();
    }

    Class<?> type(String name) throws ClassNotFoundException {
        return loader.loadClass(name);
    }

    /** Calls the public method {@code name} of {@code target}, found by name and number of arguments. */
    private static Object call(Object target, String name, Object... args) throws Exception {
        List<Method> candidates = new ArrayList<>();
        for (Method method : target.getClass().getMethods()) {
            if (method.getName().equals(name) && method.getParameterCount() == args.length) {
                candidates.add(method);
            }
        }
        if (candidates.size() != 1) {
            throw new IllegalArgumentException(candidates.size() + " methods " + name + " with " + args.length
                    + " arguments in " + target.getClass());
        }
        return candidates.get(0).invoke(target, args);
    }

    /** {@code equals}, {@code hashCode} and {@code toString} of a proxy, by identity. */
    private static Object objectMethod(Object proxy, Method method, Object[] args) {
        return switch (method.getName()) {
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            case "toString" -> "proxy " + method.getDeclaringClass().getSimpleName();
            default -> throw new UnsupportedOperationException(method.toString());
        };
    }

    @Override
    public void close() throws IOException {
        loader.close();
    }
}
