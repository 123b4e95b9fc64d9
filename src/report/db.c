// SPDX-License-Identifier: GPL-2.0-or-later
/* History database; see report.h and docs/db-schema.md. (stub) */
#include <stdlib.h>

#include "core/log.h"
#include "report/report.h"

const char *rdb_default_path(void) { return NULL; }
struct rdb *rdb_open(const char *path, bool create) { log_error("todo"); return NULL; }
void rdb_close(struct rdb *db) {}
int rdb_add(struct rdb *db, const struct rep_run *r, bool *dup, int64_t *id) { return -1; }
int rdb_load(struct rdb *db, const struct filter *f, struct rep_runs *out) { return -1; }
int rdb_remove(struct rdb *db, int64_t id) { return -1; }
int rdb_version(struct rdb *db) { return 0; }
