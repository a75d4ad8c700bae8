package io.troupe.host.plugin;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.host.actor.FactorySource;

/**
 * The source of an actor that was spawned from a factory object (a lambda, a method reference, an
 * anonymous class: {@code ctx.spawn(Auditor::new)}) once a hot swap has moved it: the factory object
 * belonged to the old revision, so the next revision re-creates the actor from its class, the class
 * of the same binary name in the new revision, through its no-argument constructor (of any access),
 * and hands it the exported state. Restarts after the swap use the same constructor. The origin stays
 * the one the actor was spawned with, so its name does not change.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
final class ActorClassSource implements FactorySource {

    private final Constructor<? extends Actor> constructor;
    private final String origin;
    /** The revision the class comes from, e.g. {@code kv 2.0.0}. */
    private final String revision;

    private ActorClassSource(Constructor<? extends Actor> constructor, String origin, String revision) {
        this.revision = revision;
        this.constructor = constructor;
        this.origin = origin;
    }

    /**
     * The source for actors of class {@code className} as {@code revision} defines it.
     *
     * @param revision describes the revision in the error, e.g. {@code kv 2.0.0}
     * @throws IllegalArgumentException saying why the class cannot re-create the actor
     */
    static ActorClassSource of(RevisionClasses classes, String className, String revision, String origin) {
        Class<?> type;
        try {
            type = classes.load(className);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("its class " + className + " does not exist in " + revision
                    + " (" + e + ")");
        }
        if (!Actor.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("class " + className + " of " + revision + " is not an Actor");
        }
        if (Modifier.isAbstract(type.getModifiers())) {
            throw new IllegalArgumentException("class " + className + " of " + revision + " is abstract");
        }
        Constructor<? extends Actor> constructor;
        try {
            constructor = type.asSubclass(Actor.class).getDeclaredConstructor();
            constructor.setAccessible(true);
        } catch (NoSuchMethodException e) {
            boolean inner = (type.isMemberClass() || type.isLocalClass() || type.isAnonymousClass())
                    && !Modifier.isStatic(type.getModifiers());
            throw new IllegalArgumentException("class " + className + " of " + revision + " has no no-argument"
                    + " constructor" + (inner ? " (an inner or anonymous class needs its enclosing instance or"
                    + " captured values: make it a static nested or top-level class)" : ""));
        } catch (RuntimeException e) { // InaccessibleObjectException, SecurityException
            throw new IllegalArgumentException("the no-argument constructor of " + className + " in " + revision
                    + " cannot be called: " + e);
        }
        return new ActorClassSource(constructor, origin, revision);
    }

    @Override
    public ActorFactory factory() {
        return this::create;
    }

    private Actor create() {
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(constructor + " failed", cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(constructor + " cannot be called", e);
        }
    }

    @Override
    public ClassLoader codeLoader() {
        return constructor.getDeclaringClass().getClassLoader();
    }

    @Override
    public String origin() {
        return origin;
    }

    @Override
    public String pluginName() {
        return revision;
    }
}
