// box3d's side of `sandbox bench --trace-every N`: builds one of box3d's
// benchmark scenes (its own `shared/benchmarks.c` builders, as its
// `benchmark` app does: 1/60 s steps, 4 substeps, continuous on), steps it
// on one thread and prints, every N steps and after the last, the awake
// bodies, box3d's contact count, the contacts its collide pass touched, its
// SAT calls and cache hits, and the step's time. It shows how a scene
// settles and what box3d's narrow phase does per step, beside the sandbox's
// trace of the same scene. With DEPTH=1 in the environment it also prints
// the deepest contact point of each printed step and of the whole run (the
// largest -separation over every shape's manifolds after the step, as
// `sandbox bench`'s max penetration measures the sandbox's), to set the
// sandbox's penetration beside a peer's on the same scene. Not run by CI;
// built by `trace.sh`.
//
// Usage: [DEPTH=1] trace SCENE [STEPS] [EVERY]   (box3d's scene names, e.g. trees100)
#include "box3d/box3d.h"
#include "benchmarks.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

typedef struct Scene
{
	const char* name;
	void ( *capacity )( b3Capacity* );
	void ( *create )( b3WorldId );
	void ( *destroy )( void );
	void ( *step )( b3WorldId, int );
	int steps;
} Scene;

// Shapes scanned for contacts at most (the largest of box3d's scenes has
// about a million).
#define MAX_SHAPES 2000000

// Contacts read per shape at most (the rest are not measured).
#define MAX_SHAPE_CONTACTS 256

// The deepest point over every live shape's contacts: the largest
// -separation, 0 when nothing overlaps. Shapes are never destroyed in these
// scenes, so each has generation 1 and ids 1..count in creation order; the
// scan stops at the first id that is not a live shape.
static float DeepestContact( b3WorldId world )
{
	static b3ContactData data[MAX_SHAPE_CONTACTS];
	float deepest = 0.0f;
	for ( int i = 1; i <= MAX_SHAPES; ++i )
	{
		b3ShapeId id = { i, (uint16_t)( world.index1 - 1 ), 1 };
		if ( b3Shape_IsValid( id ) == false )
		{
			break;
		}
		int n = b3Shape_GetContactData( id, data, MAX_SHAPE_CONTACTS );
		for ( int c = 0; c < n; ++c )
		{
			for ( int m = 0; m < data[c].manifoldCount; ++m )
			{
				const b3Manifold* manifold = data[c].manifolds + m;
				for ( int p = 0; p < manifold->pointCount; ++p )
				{
					float depth = -manifold->points[p].separation;
					deepest = depth > deepest ? depth : deepest;
				}
			}
		}
	}
	return deepest;
}

static double NowMs( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main( int argc, char** argv )
{
	// The step counts are those of box3d's `benchmark` app.
	Scene scenes[] = {
		{ "convex_pile", GetConvexPileCapacity, CreateConvexPile, NULL, NULL, 500 },
		{ "joint_grid", NULL, CreateJointGrid, NULL, NULL, 100 },
		{ "junkyard", GetJunkyardCapacity, CreateJunkyard, NULL, StepJunkyard, 500 },
		{ "large_pyramid", NULL, CreateLargePyramid, NULL, NULL, 200 },
		{ "large_world", GetLargeWorldCapacity, CreateLargeWorld, NULL, StepLargeWorld, 500 },
		{ "many_pyramids", NULL, CreateManyPyramids, NULL, NULL, 100 },
		{ "trees100", NULL, CreateTrees100, DestroyTrees, NULL, 500 },
		{ "trees50", NULL, CreateTrees50, DestroyTrees, NULL, 500 },
		{ "trees25", NULL, CreateTrees25, DestroyTrees, NULL, 500 },
		{ "washer", GetWasherCapacity, CreateWasher, NULL, NULL, 1000 },
	};
	int count = (int)( sizeof( scenes ) / sizeof( scenes[0] ) );
	const Scene* scene = NULL;
	for ( int i = 0; argc > 1 && i < count; ++i )
	{
		if ( strcmp( argv[1], scenes[i].name ) == 0 )
		{
			scene = scenes + i;
		}
	}
	if ( scene == NULL )
	{
		fprintf( stderr, "usage: trace SCENE [STEPS] [EVERY]; SCENE one of:" );
		for ( int i = 0; i < count; ++i )
		{
			fprintf( stderr, " %s", scenes[i].name );
		}
		fprintf( stderr, "\n" );
		return 2;
	}
	int steps = argc > 2 ? atoi( argv[2] ) : scene->steps;
	int every = argc > 3 ? atoi( argv[3] ) : 25;
	if ( steps < 1 || every < 1 )
	{
		fprintf( stderr, "STEPS and EVERY must be positive integers\n" );
		return 2;
	}

	b3WorldDef def = b3DefaultWorldDef();
	def.workerCount = 1;
	def.enableContinuous = true;
	if ( scene->capacity != NULL )
	{
		scene->capacity( &def.capacity );
	}
	b3WorldId world = b3CreateWorld( &def );
	scene->create( world );

	const char* depthFlag = getenv( "DEPTH" );
	bool measureDepth = depthFlag != NULL && strcmp( depthFlag, "1" ) == 0;
	float worstDepth = 0.0f;
	int worstStep = -1;
	double total = 0.0;
	for ( int i = 0; i < steps; ++i )
	{
		double start = NowMs();
		if ( scene->step != NULL )
		{
			scene->step( world, i );
		}
		b3World_Step( world, 1.0f / 60.0f, 4 );
		double ms = NowMs() - start;
		total += ms;
		float depth = measureDepth ? DeepestContact( world ) : 0.0f;
		if ( depth > worstDepth )
		{
			worstDepth = depth;
			worstStep = i;
		}
		if ( i % every == 0 || i + 1 == steps )
		{
			b3Counters c = b3World_GetCounters( world );
			printf( "step %6d  awake %6d  contacts %7d (%d collided)  sat %d (%d cached)  %.3f ms", i,
					b3World_GetAwakeBodyCount( world ), c.contactCount, c.awakeContactCount, c.satCallCount,
					c.satCacheHitCount, ms );
			if ( measureDepth )
			{
				printf( "  deepest %.4f m", depth );
			}
			printf( "\n" );
		}
	}
	printf( "%s: %d steps, %.1f ms in all\n", scene->name, steps, total );
	if ( measureDepth )
	{
		printf( "deepest contact over the run: %.4f m at step %d\n", worstDepth, worstStep );
	}
	b3DestroyWorld( world );
	if ( scene->destroy != NULL )
	{
		scene->destroy();
	}
	return 0;
}
