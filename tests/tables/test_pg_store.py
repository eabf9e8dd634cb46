"""What only the PostgreSQL store does: choosing it by URL, refusing a
database it cannot use with one line, taking turns with another server, and
connecting again when the database comes back."""

from __future__ import annotations

import psutil  # type: ignore[import-untyped]
import psycopg
import pytest

from fivetowers.games.five_towers.rules.game import Game
from fivetowers.tables import pg_schema
from fivetowers.tables.pg_store import PgStore, describe
from fivetowers.tables.store import (
    PendingAction, StoreBusy, StoreConflict, StoreError, StoreMissing, StoreUnavailable,
    StoreUnreadable, StoreVersionError, open_store, store_url,
)
from tests.postgres import Postgres
from tests.tables.kept import kept
from tests.tables.test_store import SEATS, new_table, play


def sql(url: str, query: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(query)


def test_open_store_with_a_url_opens_postgresql(postgres_url: str) -> None:
    store = open_store(url=postgres_url)
    assert isinstance(store, PgStore)
    new_table(store, "PG")
    store.close()
    again = open_store("/nonexistent/data/dir", url=postgres_url, create=False)
    assert [t.info.code for t in again.unfinished_tables()] == ["PG"]
    again.close()


def test_the_url_comes_from_the_option_else_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FIVETOWERS_STORE", raising=False)
    assert store_url(None) is None  # the SQLite default: nothing changes
    monkeypatch.setenv("FIVETOWERS_STORE", "postgresql://env/db")
    assert store_url(None) == "postgresql://env/db"
    assert store_url("postgres://option/db") == "postgres://option/db"
    with pytest.raises(StoreError, match=r"^--store must be a postgresql:// URL"):
        store_url("/var/lib/fivetowers")
    monkeypatch.setenv("FIVETOWERS_STORE", "mysql://x")
    with pytest.raises(StoreError, match=r"^\$FIVETOWERS_STORE must be"):
        store_url(None)


def test_messages_never_show_the_password() -> None:
    where = describe("postgresql://hedda:s3cret@db.example:5433/games")
    assert where == "postgresql://hedda@db.example:5433/games"
    with pytest.raises(StoreUnavailable) as caught:
        PgStore("postgresql://hedda:s3cret@127.0.0.1:1/games")
    message = str(caught.value)
    assert "s3cret" not in message and "\n" not in message
    assert message.startswith("cannot reach the store postgresql://hedda@127.0.0.1:1/games: ")


def test_an_unreachable_database_is_one_line(postgres: Postgres) -> None:
    with pytest.raises(StoreUnavailable, match="^cannot reach the store ") as caught:
        PgStore(postgres.server.get_uri(database="no_such_database"))
    assert "\n" not in str(caught.value) and "no_such_database" in str(caught.value)


def test_a_foreign_database_is_refused_and_left_alone(postgres_url: str) -> None:
    sql(postgres_url, "CREATE TABLE invoices (id integer)")
    with pytest.raises(StoreUnreadable, match="holds other tables and is not a fivetowers"):
        PgStore(postgres_url)
    with psycopg.connect(postgres_url) as conn:  # nothing was created beside it
        names = {n for (n,) in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
    assert names == {"invoices"}


def test_a_marker_of_another_application_is_refused(postgres_url: str) -> None:
    PgStore(postgres_url).close()
    sql(postgres_url, "UPDATE fivetowers_store SET application = 'other'")
    with pytest.raises(StoreUnreadable, match="is not a fivetowers store"):
        PgStore(postgres_url)


def test_a_newer_store_is_refused(postgres_url: str) -> None:
    PgStore(postgres_url).close()
    sql(postgres_url, f"UPDATE fivetowers_store SET version = {pg_schema.SCHEMA_VERSION + 1}")
    with pytest.raises(StoreVersionError, match="newer than this fivetowers understands"):
        PgStore(postgres_url)


def test_a_store_that_lost_a_table_is_refused(postgres_url: str) -> None:
    PgStore(postgres_url).close()
    sql(postgres_url, "DROP TABLE ratings")
    with pytest.raises(StoreUnreadable, match="lost some of its tables"):
        PgStore(postgres_url)


def test_an_empty_database_is_not_made_a_store_unless_asked(postgres_url: str) -> None:
    with pytest.raises(StoreMissing, match="no game has been kept there yet"):
        PgStore(postgres_url, create=False)
    PgStore(postgres_url).close()
    PgStore(postgres_url, create=False).close()


def test_an_older_store_is_migrated_in_one_transaction(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    PgStore(postgres_url).close()  # version 1
    added: list[int] = []

    def to_v2(conn: pg_schema.Connection) -> None:
        conn.execute("ALTER TABLE games ADD COLUMN note TEXT")
        added.append(2)

    def broken_v3(conn: pg_schema.Connection) -> None:
        conn.execute("ALTER TABLE games ADD COLUMN other TEXT")
        raise psycopg.DataError("the migration to version 3 failed")

    monkeypatch.setattr(pg_schema, "MIGRATIONS", [*pg_schema.MIGRATIONS, to_v2, broken_v3])
    monkeypatch.setattr("fivetowers.tables.pg_store.SCHEMA_VERSION", 3)
    with pytest.raises(StoreUnreadable, match="migration to version 3 failed"):
        PgStore(postgres_url)
    with psycopg.connect(postgres_url) as conn:  # neither step stayed
        (version,) = conn.execute("SELECT version FROM fivetowers_store").fetchone() or (0,)
        columns = {c for (c,) in conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'games'")}
    assert version == 1 and "note" not in columns and "other" not in columns
    monkeypatch.setattr(pg_schema, "MIGRATIONS", [*pg_schema.MIGRATIONS[:2]])
    monkeypatch.setattr("fivetowers.tables.pg_store.SCHEMA_VERSION", 2)
    PgStore(postgres_url).close()
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT version FROM fivetowers_store").fetchone() == (2,)
    assert added == [2, 2]  # run (and rolled back) once, then run for good


def test_an_exclusive_store_refuses_a_second_server(postgres_url: str) -> None:
    server = open_store(url=postgres_url, exclusive=True)
    with pytest.raises(StoreBusy, match="another fivetowers server is using the store"):
        open_store(url=postgres_url, exclusive=True)
    reader = open_store(url=postgres_url, create=False)  # export may read meanwhile
    assert reader.unfinished_tables() == []
    reader.close()
    server.close()
    open_store(url=postgres_url, exclusive=True).close()  # released on close


def test_a_stale_action_from_a_second_writer_is_refused(postgres_url: str) -> None:
    first, second = PgStore(postgres_url), PgStore(postgres_url)
    table_id, game = new_table(first, "TWO")
    play(first, table_id, game, seed=1, count=3)
    with pytest.raises(StoreConflict, match="out of order: the store holds 3 actions"):
        second.append_action(table_id, 2, {"seat": 0, "pass": True})
    assert second.load_table(table_id).record["actions"] == [a.to_json() for a in game.actions]
    first.close()
    second.close()


def end_sessions(url: str) -> None:
    """The database ends every other session of it (as a restart would)."""
    sql(url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
             "WHERE datname = current_database() AND pid <> pg_backend_pid()")


def test_an_idle_connection_found_dead_begins_again_and_keeps_the_write(
        postgres_url: str) -> None:
    store = PgStore(postgres_url)
    table_id, game = new_table(store, "DROP")
    play(store, table_id, game, seed=2, count=2)
    end_sessions(postgres_url)
    play(store, table_id, game, seed=2, count=1)  # BEGIN finds it dead: kept at once
    assert store.load_table(table_id).record["actions"] == [a.to_json() for a in game.actions]
    play(store, table_id, game, seed=2, count=2)
    assert store.load_table(table_id).info.actions == 5
    store.close()


def test_a_connection_lost_mid_transaction_fails_that_call_and_is_never_replayed(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once BEGIN was answered, a failure is the caller's: the store cannot
    tell how far a transaction got, so it never runs one twice."""
    store = PgStore(postgres_url)
    table_id, game = new_table(store, "CUT")
    play(store, table_id, game, seed=2, count=2)
    appends: list[int] = []
    append = store._append

    def cut_then_append(conn: psycopg.Connection[object], item: PendingAction) -> None:
        appends.append(item.index)
        if len(appends) == 1:
            end_sessions(postgres_url)
        append(conn, item)
    monkeypatch.setattr(store, "_append", cut_then_append)
    with pytest.raises(StoreUnavailable, match="^the store postgresql://.* failed: ") as caught:
        store.append_action(table_id, 2, {"seat": 0, "pass": True})
    assert "\n" not in str(caught.value) and appends == [2]
    assert store.load_table(table_id).info.actions == 2  # nothing written
    play(store, table_id, game, seed=2, count=3)  # connected again: play resumes
    assert store.load_table(table_id).info.actions == 5 and appends == [2, 2, 3, 4]
    store.close()


def test_a_refused_item_of_a_batch_leaves_the_others_kept(postgres_url: str) -> None:

    store = PgStore(postgres_url)
    game = Game([s.name for s in SEATS], seed=3)
    one = store.create_table(code="A", name="a", seats=SEATS, **kept(game))
    two = store.create_table(code="B", name="b", seats=SEATS, **kept(game))
    action = {"seat": 0, "pass": True}
    results = store.append_actions([PendingAction(one, 0, action), PendingAction(two, 5, action),
                                    PendingAction(two, 0, action)])
    assert [type(r).__name__ if r else None for r in results] == [None, "StaleAction", None]
    assert [store.load_table(t).info.actions for t in (one, two)] == [1, 1]
    store.close()


def kill_postgres(server: Postgres) -> None:
    """SIGKILL the server and every process of it, as a crash would."""
    pid = server.server.get_pid()
    assert pid is not None
    postmaster = psutil.Process(pid)
    processes = [postmaster, *postmaster.children(recursive=True)]
    for process in processes:
        process.kill()
    psutil.wait_procs(processes, timeout=10)


def test_postgresql_killed_under_play_refuses_then_resumes_losing_nothing() -> None:
    own = Postgres()  # a server of its own: the session's goes on serving the others
    try:
        store = PgStore(own.new_database())
        table_id, game = new_table(store, "KILL")
        play(store, table_id, game, seed=4, count=6)
        acknowledged = [a.to_json() for a in game.actions]
        kill_postgres(own)
        for _ in range(2):  # each call: its BEGIN finds the connection dead and no server to connect to
            with pytest.raises(StoreUnavailable) as caught:
                store.append_action(table_id, 6, {"seat": 0, "pass": True})
            message = str(caught.value)
            assert message.startswith(("the store postgresql://", "cannot reach the store "))
            assert "\n" not in message
        own.server.ensure_postgres_running()  # crash recovery replays its WAL
        assert store.load_table(table_id).record["actions"] == acknowledged
        play(store, table_id, game, seed=4, count=4)  # play resumes on the same store
        assert store.load_table(table_id).info.actions == 10
        store.close()
    finally:
        own.stop()


def test_racing_writers_keep_each_action_once_and_refuse_the_other(postgres_url: str) -> None:
    """Two servers append the same action number at the same moment, again
    and again: one is kept, the other refused as out of order (not failed)."""
    import threading

    stores = [PgStore(postgres_url), PgStore(postgres_url)]
    table_id, _ = new_table(stores[0], "RACE")
    rounds = 40
    start = threading.Barrier(2)
    outcomes: list[list[str]] = [[], []]

    def writer(n: int) -> None:
        for index in range(rounds):
            start.wait(timeout=30)
            try:
                stores[n].append_action(table_id, index, {"seat": n, "round": index})
            except StoreConflict as exc:
                outcomes[n].append(f"refused: {exc}")
            else:
                outcomes[n].append("kept")

    threads = [threading.Thread(target=writer, args=(n,)) for n in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    kept_by = [[o == "kept" for o in outcomes[n]] for n in (0, 1)]
    assert all(a != b for a, b in zip(*kept_by)), outcomes  # exactly one per round
    assert all("out of order" in o for o in outcomes[0] + outcomes[1] if o != "kept")
    stored = stores[0].load_table(table_id).record["actions"]
    assert [a["round"] for a in stored] == list(range(rounds))
    assert [a["seat"] for a in stored] == [0 if k else 1 for k in kept_by[0]]
    assert stores[1].games_of("SHA256:hedda")[0].actions == rounds
    for store in stores:
        store.close()


def test_shared_stores_hand_each_table_to_one_server_and_free_it_when_that_one_goes(
        postgres_url: str) -> None:
    first = PgStore(postgres_url, shared=True)
    second = PgStore(postgres_url, shared=True)
    mine, game = new_table(first, "MINE")  # leased by its creator as it is kept
    play(first, mine, game, seed=5, count=4)
    assert first.leases == {mine}
    assert second.orphans() == 0 and second.unfinished_tables() == []
    first.close()  # its server stops (or dies): the lease comes free
    assert second.orphans() == 1
    [taken] = second.unfinished_tables()
    assert taken.info.id == mine and taken.info.actions == 4 and second.leases == {mine}
    assert second.unfinished_tables() == [] and second.orphans() == 0  # handed out once
    third = PgStore(postgres_url, shared=True)
    assert third.unfinished_tables() == []  # the second drives it now
    third.close()
    second.close()


def test_a_store_is_shared_only_on_postgresql(tmp_path: object) -> None:
    with pytest.raises(StoreError, match="^sharing a store between servers needs PostgreSQL"):
        open_store(str(tmp_path), shared=True)
