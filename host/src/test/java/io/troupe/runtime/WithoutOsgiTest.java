package io.troupe.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import org.apache.felix.metatype.MetaDataReader;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import io.troupe.api.ActorFactory;

/**
 * The embedded runtime needs no OSGi: in a class loader that sees only the host's classes, the API, slf4j-api
 * and Felix Metatype (the dependencies an application gets with {@code io.troupe:troupe-host}), and no
 * {@code org.osgi.framework}, a runtime starts with Troupe's own SLF4J provider, answers through a handler
 * registered in code, and closes. Everything is reached by reflection, since no class of that loader is one of
 * the test's.
 */
class WithoutOsgiTest {

    @Test
    void aRuntimeStartsAnswersAndClosesOnAClassPathWithoutOsgi() throws Exception {
        Set<URL> classPath = new LinkedHashSet<>();
        for (Class<?> type : new Class<?>[] {Troupe.class, ActorFactory.class, LoggerFactory.class,
                MetaDataReader.class}) {
            classPath.add(type.getProtectionDomain().getCodeSource().getLocation());
        }
        try (URLClassLoader plain = new URLClassLoader("without-osgi", classPath.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            assertThrows(ClassNotFoundException.class, () -> plain.loadClass("org.osgi.framework.BundleContext"));
            Class<?> troupe = plain.loadClass(Troupe.class.getName());
            Class<?> factoryType = plain.loadClass("io.troupe.api.ActorFactory");
            Class<?> messageType = plain.loadClass("io.troupe.api.Message");
            Object factory = proxy(plain, factoryType, (proxy, method, args) -> method.getName().equals("create")
                    ? greeter(plain, messageType) : objectMethod(proxy, method, args));

            Object builder = troupe.getMethod("builder").invoke(null);
            Class<?> builderType = builder.getClass();
            builderType.getMethod("workers", int.class).invoke(builder, 1);
            builderType.getMethod("threadNamePrefix", String.class).invoke(builder, "embedded-without-osgi");
            builderType.getMethod("handler", String.class, factoryType).invoke(builder, "greet", factory);
            try (AutoCloseable runtime = (AutoCloseable) builderType.getMethod("build").invoke(builder)) {
                Object message = messageType.getMethod("of", String.class, String.class).invoke(null, "greet", "ada");
                CompletionStage<?> reply = (CompletionStage<?>) troupe.getMethod("ask", String.class, messageType,
                        Duration.class).invoke(runtime, "acme", message, Duration.ofSeconds(5));
                assertEquals("plain ada", reply.toCompletableFuture().get(10, TimeUnit.SECONDS));
                Class<?> slf4j = plain.loadClass("org.slf4j.LoggerFactory");
                assertEquals("io.troupe.host.log.TroupeLoggerFactory",
                        slf4j.getMethod("getILoggerFactory").invoke(null).getClass().getName(),
                        "SLF4J is bound to Troupe's provider in that loader");
            }
        }
    }

    /** An actor of {@code loader}'s API that replies {@code "plain " + text} to a Message. */
    private static Object greeter(ClassLoader loader, Class<?> messageType) throws Exception {
        Class<?> actorType = loader.loadClass("io.troupe.api.Actor");
        Method reply = loader.loadClass("io.troupe.api.ActorContext").getMethod("reply", Object.class);
        Method text = messageType.getMethod("text");
        return proxy(loader, actorType, (proxy, method, args) -> {
            if (method.getName().equals("receive")) {
                reply.invoke(args[0], "plain " + text.invoke(args[1]));
                return null;
            }
            return method.isDefault() ? InvocationHandler.invokeDefault(proxy, method, args)
                    : objectMethod(proxy, method, args);
        });
    }

    private static Object proxy(ClassLoader loader, Class<?> type, InvocationHandler handler) {
        return Proxy.newProxyInstance(loader, new Class<?>[] {type}, handler);
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
}
