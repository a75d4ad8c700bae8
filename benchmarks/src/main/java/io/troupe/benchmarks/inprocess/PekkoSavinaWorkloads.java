package io.troupe.benchmarks.inprocess;

import java.util.SplittableRandom;

import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

import io.troupe.benchmarks.inprocess.SavinaMessages.Arrange;
import io.troupe.benchmarks.inprocess.SavinaMessages.Ask;
import io.troupe.benchmarks.inprocess.SavinaMessages.Change;
import io.troupe.benchmarks.inprocess.SavinaMessages.Meet;
import io.troupe.benchmarks.inprocess.SavinaMessages.Start;
import io.troupe.benchmarks.inprocess.SavinaMessages.Token;

/**
 * {@link TroupeSavinaWorkloads} on Pekko's classic API, message for message, written as
 * {@link PekkoWorkloads} writes hot actors. Pekko creates an actor's instance itself, so the ring and
 * the big actors learn their peers from a setup message instead of their constructor.
 *
 * <p><b>Threading:</b> the factory methods run on the benchmark thread; the actors run on Pekko's
 * dispatcher, one message at a time each.
 */
final class PekkoSavinaWorkloads {

    private PekkoSavinaWorkloads() {
    }

    /** Setup: the ring member after this one. */
    private record Next(ActorRef next) {
    }

    /** Setup: every big actor, this one included. */
    private record Peers(ActorRef[] all) {
    }

    static Workload ring(ActorSystem system) {
        ActorRef[] members = new ActorRef[WorkloadKind.RING_ACTORS];
        for (int i = 0; i < members.length; i++) {
            members[i] = system.actorOf(Props.create(RingMember.class, RingMember::new));
        }
        for (int i = 0; i < members.length; i++) {
            members[i].tell(new Next(members[(i + 1) % members.length]), ActorRef.noSender());
        }
        return () -> {
            RoundSignal round = new RoundSignal(1);
            members[0].tell(new Token(round, WorkloadKind.RING_HOPS - 1), ActorRef.noSender());
            round.await();
        };
    }

    static Workload chameneos(ActorSystem system) {
        ActorRef broker = system.actorOf(Props.create(Broker.class,
                () -> new Broker(WorkloadKind.CHAMENEOS_CREATURES)));
        ActorRef[] creatures = new ActorRef[WorkloadKind.CHAMENEOS_CREATURES];
        for (int i = 0; i < creatures.length; i++) {
            int colour = i % 3;
            creatures[i] = system.actorOf(Props.create(Creature.class, () -> new Creature(broker, colour)));
        }
        return () -> {
            RoundSignal round = new RoundSignal(1);
            broker.tell(new Arrange(round, WorkloadKind.CHAMENEOS_MEETINGS), ActorRef.noSender());
            for (ActorRef creature : creatures) {
                creature.tell(SavinaMessages.GO, ActorRef.noSender());
            }
            round.await();
        };
    }

    static Workload big(ActorSystem system) {
        ActorRef[] members = new ActorRef[WorkloadKind.BIG_ACTORS];
        for (int i = 0; i < members.length; i++) {
            int index = i;
            members[i] = system.actorOf(Props.create(BigMember.class, () -> new BigMember(index)));
        }
        Peers peers = new Peers(members);
        for (ActorRef member : members) {
            member.tell(peers, ActorRef.noSender());
        }
        return () -> {
            RoundSignal round = new RoundSignal(members.length);
            Start start = new Start(round);
            for (ActorRef member : members) {
                member.tell(start, ActorRef.noSender());
            }
            round.await();
        };
    }

    static Workload forkJoin(ActorSystem system) {
        ActorRef[] workers = new ActorRef[WorkloadKind.FORK_JOIN_ACTORS];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = system.actorOf(Props.create(ForkJoinWorker.class, ForkJoinWorker::new));
        }
        return () -> {
            RoundSignal round = new RoundSignal(workers.length);
            Start start = new Start(round);
            for (ActorRef worker : workers) {
                worker.tell(start, ActorRef.noSender());
            }
            for (int task = 0; task < WorkloadKind.FORK_JOIN_TASKS; task++) {
                for (ActorRef worker : workers) {
                    worker.tell(SavinaMessages.TASK, ActorRef.noSender());
                }
            }
            round.await();
        };
    }

    /** See {@code TroupeSavinaWorkloads.RingMember}. */
    static final class RingMember extends UntypedAbstractActor {
        private ActorRef next;

        @Override
        public void onReceive(Object message) {
            if (message instanceof Token token) {
                if (token.hopsLeft() == 0) {
                    token.round().done();
                } else {
                    next.tell(new Token(token.round(), token.hopsLeft() - 1), getSelf());
                }
            } else if (message instanceof Next link) {
                next = link.next();
            }
        }
    }

    /** See {@code TroupeSavinaWorkloads.Broker}. */
    static final class Broker extends UntypedAbstractActor {
        private final int creatures;
        private RoundSignal round;
        private int meetingsLeft;
        private int resting;
        private ActorRef waiting;
        private int waitingColour;

        Broker(int creatures) {
            this.creatures = creatures;
        }

        @Override
        public void onReceive(Object message) {
            if (message instanceof Arrange arrange) {
                round = arrange.round();
                meetingsLeft = arrange.meetings();
                resting = 0;
                return;
            }
            Ask ask = (Ask) message;
            ActorRef sender = getSender();
            if (meetingsLeft == 0) {
                sender.tell(SavinaMessages.REST, getSelf());
                if (++resting == creatures) {
                    round.done();
                }
            } else if (waiting == null) {
                waiting = sender;
                waitingColour = ask.colour();
            } else {
                sender.tell(new Meet(waiting, waitingColour), getSelf());
                waiting = null;
                meetingsLeft--;
            }
        }
    }

    /** See {@code TroupeSavinaWorkloads.Creature}. */
    static final class Creature extends UntypedAbstractActor {
        private final ActorRef broker;
        private int colour;

        Creature(ActorRef broker, int colour) {
            this.broker = broker;
            this.colour = colour;
        }

        @Override
        public void onReceive(Object message) {
            if (message instanceof Meet meet) {
                ((ActorRef) meet.partner()).tell(new Change(colour), getSelf());
                colour = SavinaMessages.complement(colour, meet.colour());
                broker.tell(new Ask(colour), getSelf());
            } else if (message instanceof Change change) {
                colour = SavinaMessages.complement(colour, change.colour());
                broker.tell(new Ask(colour), getSelf());
            } else if (message == SavinaMessages.GO) {
                broker.tell(new Ask(colour), getSelf());
            }
        }
    }

    /** See {@code TroupeSavinaWorkloads.BigMember}. */
    static final class BigMember extends UntypedAbstractActor {
        private final SplittableRandom random;
        private ActorRef[] peers;
        private RoundSignal round;
        private int pongs;

        BigMember(int index) {
            this.random = new SplittableRandom(index);
        }

        @Override
        public void onReceive(Object message) {
            if (message == SavinaMessages.PING) {
                getSender().tell(SavinaMessages.PONG, getSelf());
            } else if (message == SavinaMessages.PONG) {
                if (++pongs == WorkloadKind.BIG_PINGS) {
                    round.done();
                } else {
                    ping();
                }
            } else if (message instanceof Start start) {
                round = start.round();
                pongs = 0;
                ping();
            } else if (message instanceof Peers all) {
                peers = all.all();
            }
        }

        private void ping() {
            peers[random.nextInt(peers.length)].tell(SavinaMessages.PING, getSelf());
        }
    }

    /** See {@code TroupeSavinaWorkloads.ForkJoinWorker}. */
    static final class ForkJoinWorker extends UntypedAbstractActor {
        private RoundSignal round;
        private int done;
        private double result;

        @Override
        public void onReceive(Object message) {
            if (message instanceof Start start) {
                round = start.round();
                done = 0;
                return;
            }
            result += SavinaMessages.compute(done + result % 7);
            if (++done == WorkloadKind.FORK_JOIN_TASKS) {
                round.done();
            }
        }
    }
}
