"""A small music API (schemas, a nested entity, a paging wrapper, an enum) and its derived schema."""

from __future__ import annotations

from pathlib import Path

import pytest

from openapi_rag.generate.sql import DbSchema, derive_schema, fill_database
from openapi_rag.spec import load_services

MUSIC_SPEC = """
openapi: 3.0.3
info: {title: Music, version: "1"}
paths:
  /artists/{id}:
    get:
      summary: Get an artist
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: "#/components/schemas/ArtistObject"}}}
  /me/playlists:
    get:
      summary: Get the current user's playlists
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  limit: {type: integer}
                  total: {type: integer}
                  items: {type: array, items: {$ref: "#/components/schemas/SimplifiedPlaylistObject"}}
  /albums:
    get:
      summary: List albums
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/AlbumObject"}}
  /albums/{id}/tracks:
    get:
      summary: An album's tracks
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        "200":
          description: ok
          content:
            application/json:
              example: [{"id": 7, "albumId": "a1", "title": "Intro", "duration_ms": 61000, "explicit": false}]
components:
  schemas:
    ArtistObject:
      type: object
      description: A musician or band.
      properties:
        id: {type: string, description: The artist's id.}
        name: {type: string, description: The artist's name.}
        popularity: {type: integer, description: Popularity from 0 to 100.}
        genres: {type: array, items: {type: string}}
    AlbumObject:
      type: object
      properties:
        id: {type: string}
        name: {type: string}
        album_type: {type: string, enum: [album, single, compilation]}
        release_date: {type: string, format: date}
        total_tracks: {type: integer}
        artist: {$ref: "#/components/schemas/ArtistObject"}
    SimplifiedPlaylistObject:
      type: object
      properties:
        id: {type: string}
        name: {type: string, description: The name of the playlist.}
        public: {type: boolean}
        tracks: {type: object, properties: {total: {type: integer}, href: {type: string}}}
        owner: {$ref: "#/components/schemas/UserObject"}
    UserObject:
      type: object
      properties:
        id: {type: string}
        display_name: {type: string}
        country: {type: string}
"""


@pytest.fixture
def music_spec(tmp_path: Path) -> Path:
    path = tmp_path / "music.yaml"
    path.write_text(MUSIC_SPEC, encoding="utf-8")
    return path


@pytest.fixture
def music_schema(music_spec: Path) -> DbSchema:
    return derive_schema(load_services([music_spec]).services)


@pytest.fixture
def music_ddl(music_schema: DbSchema, tmp_path: Path) -> Path:
    path = tmp_path / "music.sql"
    music_schema.save(path)
    return path


@pytest.fixture
def music_db(music_ddl: Path, music_schema: DbSchema, tmp_path: Path) -> Path:
    path = tmp_path / "music.sqlite"
    fill_database(music_schema, path, rows=30, seed=3)
    return path
