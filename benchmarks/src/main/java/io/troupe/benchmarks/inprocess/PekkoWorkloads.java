package io.troupe.benchmarks.inprocess;

import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/**
 * The workloads written with Pekko's classic API, as a Pekko expert writes hot actors:
 * {@link UntypedAbstractActor} (no partial-function matching), {@code getSender().tell}, children
 * that report their stop from {@code postStop} (cheaper than death watch).
 *
 * <p><b>Threading:</b> the factory methods run on the benchmark thread; the actors run on Pekko's
 * dispatcher, one message at a time each.
 */
final class PekkoWorkloads {

    private static final Object BALL = new Object();
    private static final Object STOPPED = new Object();

    private PekkoWorkloads() {
    }

    static Workload pingPong(ActorSystem system, PingPongShape shape) {
        ActorRef[] pingers = new ActorRef[shape.pairs()];
        for (int i = 0; i < pingers.length; i++) {
            ActorRef ponger = system.actorOf(Props.create(Ponger.class, Ponger::new));
            pingers[i] = system.actorOf(Props.create(Pinger.class, () -> new Pinger(ponger, shape)));
        }
        return () -> {
            RoundSignal round = new RoundSignal(pingers.length);
            for (ActorRef pinger : pingers) {
                pinger.tell(round, ActorRef.noSender());
            }
            round.await();
        };
    }

    static Workload fanOut(ActorSystem system) {
        ActorRef parent = system.actorOf(Props.create(FanOutParent.class, FanOutParent::new));
        return () -> {
            RoundSignal round = new RoundSignal(1);
            parent.tell(round, ActorRef.noSender());
            round.await();
        };
    }

    static Workload oneMailbox(ActorSystem system, int senderCount) {
        int share = WorkloadKind.MAILBOX_MESSAGES / senderCount;
        ActorRef receiver = system.actorOf(Props.create(Receiver.class, () -> new Receiver(share * senderCount)));
        ActorRef[] senders = new ActorRef[senderCount];
        for (int i = 0; i < senderCount; i++) {
            senders[i] = system.actorOf(Props.create(Sender.class, () -> new Sender(receiver, share)));
        }
        return () -> {
            RoundSignal round = new RoundSignal(1);
            receiver.tell(round, ActorRef.noSender());
            for (ActorRef sender : senders) {
                sender.tell(BALL, ActorRef.noSender());
            }
            round.await();
        };
    }

    static Workload spawnStop(ActorSystem system, int count) {
        ActorRef parent = system.actorOf(Props.create(SpawnParent.class, () -> new SpawnParent(count)));
        return () -> {
            RoundSignal round = new RoundSignal(1);
            parent.tell(round, ActorRef.noSender());
            round.await();
        };
    }

    static void spawnIdle(ActorSystem system, int count) throws Exception {
        RoundSignal started = new RoundSignal(count);
        Props props = Props.create(Idle.class, () -> new Idle(started));
        for (int i = 0; i < count; i++) {
            system.actorOf(props);
        }
        started.await();
    }

    /** Sends every ball straight back. */
    static final class Ponger extends UntypedAbstractActor {
        @Override
        public void onReceive(Object message) {
            getSender().tell(message, getSelf());
        }
    }

    /** Keeps {@code inFlight} balls bouncing off its ponger until the round's count has come back. */
    static final class Pinger extends UntypedAbstractActor {
        private final ActorRef ponger;
        private final PingPongShape shape;
        private RoundSignal round;
        private int sent;
        private int received;

        Pinger(ActorRef ponger, PingPongShape shape) {
            this.ponger = ponger;
            this.shape = shape;
        }

        @Override
        public void onReceive(Object message) {
            if (message instanceof RoundSignal start) {
                round = start;
                sent = 0;
                received = 0;
                for (int i = 0; i < shape.inFlight() && sent < shape.roundTripsPerPair(); i++) {
                    sent++;
                    ponger.tell(BALL, getSelf());
                }
                return;
            }
            received++;
            if (sent < shape.roundTripsPerPair()) {
                sent++;
                ponger.tell(BALL, getSelf());
            } else if (received == shape.roundTripsPerPair()) {
                round.done();
            }
        }
    }

    /** Spreads the round's messages over its children and counts their receipts. */
    static final class FanOutParent extends UntypedAbstractActor {
        private final ActorRef[] children = new ActorRef[WorkloadKind.FAN_OUT_CHILDREN];
        private RoundSignal round;
        private int receipts;

        @Override
        public void preStart() {
            for (int i = 0; i < children.length; i++) {
                children[i] = getContext().actorOf(Props.create(Ponger.class, Ponger::new));
            }
        }

        @Override
        public void onReceive(Object message) {
            if (message instanceof RoundSignal start) {
                round = start;
                receipts = 0;
                ActorRef self = getSelf();
                for (int i = 0; i < WorkloadKind.FAN_OUT_MESSAGES; i++) {
                    children[i % children.length].tell(BALL, self);
                }
                return;
            }
            if (++receipts == WorkloadKind.FAN_OUT_MESSAGES) {
                round.done();
            }
        }
    }

    /** Counts what its senders send; the round is over when all of it has arrived. */
    static final class Receiver extends UntypedAbstractActor {
        private final int expected;
        private RoundSignal round;
        private int received;

        Receiver(int expected) {
            this.expected = expected;
        }

        @Override
        public void onReceive(Object message) {
            if (message instanceof RoundSignal start) {
                round = start;
                received = 0;
            } else if (++received == expected) {
                round.done();
            }
        }
    }

    /** On each go, sends its share of the round to the receiver in one burst. */
    static final class Sender extends UntypedAbstractActor {
        private final ActorRef receiver;
        private final int share;

        Sender(ActorRef receiver, int share) {
            this.receiver = receiver;
            this.share = share;
        }

        @Override
        public void onReceive(Object message) {
            ActorRef self = getSelf();
            for (int i = 0; i < share; i++) {
                receiver.tell(BALL, self);
            }
        }
    }

    /** Spawns children that stop themselves, keeping a window of them alive, until the count is reached. */
    static final class SpawnParent extends UntypedAbstractActor {
        private final int count;
        private final Props child = Props.create(SelfStopping.class, SelfStopping::new);
        private RoundSignal round;
        private int spawned;
        private int stopped;

        SpawnParent(int count) {
            this.count = count;
        }

        @Override
        public void onReceive(Object message) {
            if (message instanceof RoundSignal start) {
                round = start;
                spawned = 0;
                stopped = 0;
                while (spawned < Math.min(count, WorkloadKind.SPAWN_WINDOW)) {
                    spawnOne();
                }
            } else if (message == STOPPED) {
                if (++stopped == count) {
                    round.done();
                } else if (spawned < count) {
                    spawnOne();
                }
            }
        }

        private void spawnOne() {
            spawned++;
            getContext().actorOf(child);
        }
    }

    /** Stops as soon as it has started and tells its parent from postStop. */
    static final class SelfStopping extends UntypedAbstractActor {
        @Override
        public void preStart() {
            getContext().stop(getSelf());
        }

        @Override
        public void postStop() {
            getContext().getParent().tell(STOPPED, getSelf());
        }

        @Override
        public void onReceive(Object message) {
        }
    }

    /** Holds nothing and does nothing; tells the measurement it has started. */
    static final class Idle extends UntypedAbstractActor {
        private final RoundSignal started;

        Idle(RoundSignal started) {
            this.started = started;
        }

        @Override
        public void preStart() {
            started.done();
        }

        @Override
        public void onReceive(Object message) {
        }
    }
}
