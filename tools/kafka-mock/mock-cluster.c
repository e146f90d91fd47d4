/*
 * A Kafka-protocol broker for tests, without Docker: librdkafka's mock cluster.
 *
 *   mock-cluster <broker-count> [topic:partitions ...]
 *
 * Prints the bootstrap servers ("127.0.0.1:p1,127.0.0.1:p2") on one stdout line, pre-creates the given
 * topics (the mock implements no CreateTopics; unknown topics are auto-created with 4 partitions), then
 * serves until stdin closes or SIGTERM/SIGINT arrives. Build: gcc -O1 -o mock-cluster mock-cluster.c -lrdkafka
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

static volatile sig_atomic_t stopping = 0;

static void on_signal(int sig) {
  (void)sig;
  stopping = 1;
}

int main(int argc, char **argv) {
  char errstr[512];
  int brokers = argc > 1 ? atoi(argv[1]) : 1;
  if (brokers < 1) brokers = 1;

  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "log_level", "0", errstr, sizeof errstr);
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  if (!rk) {
    fprintf(stderr, "rd_kafka_new: %s\n", errstr);
    return 1;
  }
  rd_kafka_mock_cluster_t *cluster = rd_kafka_mock_cluster_new(rk, brokers);
  if (!cluster) {
    fprintf(stderr, "rd_kafka_mock_cluster_new failed\n");
    return 1;
  }

  for (int i = 2; i < argc; i++) {
    char name[256];
    int partitions = 1;
    const char *colon = strrchr(argv[i], ':');
    size_t len = colon ? (size_t)(colon - argv[i]) : strlen(argv[i]);
    if (len == 0 || len >= sizeof name) continue;
    memcpy(name, argv[i], len);
    name[len] = '\0';
    if (colon) partitions = atoi(colon + 1);
    if (partitions < 1) partitions = 1;
    rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(cluster, name, partitions, 1);
    if (err) fprintf(stderr, "topic %s: %s\n", name, rd_kafka_err2str(err));
  }

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal; /* no SA_RESTART: a signal interrupts the blocking read below */
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);

  printf("%s\n", rd_kafka_mock_cluster_bootstraps(cluster));
  fflush(stdout);

  char buf[256];
  while (!stopping) {
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n == 0 || (n < 0 && errno != EINTR)) break;
  }

  /* The process ends here: skip the orderly librdkafka teardown (about 1 s of thread joins). */
  _exit(0);
}
