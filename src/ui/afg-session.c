/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-session"

#include "config.h"

#include "afg-session.h"

struct _AfgSession {
  GObject           parent_instance;

  GFile            *file;
  AfgTree          *tree;
  AfgWeight         weight;
  AfgWeight         device_weight;
  AfgColumn         column;
  guint             comparing : 1;
  guint             merge_addresses : 1;
  guint             npu_idle : 1;
  guint             icicle : 1;
  GFile            *job_folder;
  AfgTransformList *transforms;
};

G_DEFINE_FINAL_TYPE (AfgSession, afg_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FILE,
  PROP_TREE,
  PROP_COMPARING,
  PROP_WEIGHT,
  PROP_DEVICE_WEIGHT,
  PROP_COLUMN,
  PROP_MERGE_ADDRESSES,
  PROP_NPU_IDLE,
  PROP_JOB_FOLDER,
  PROP_TRANSFORMS,
  PROP_ICICLE,
  PROP_DOCUMENT,
  PROP_SCOPE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GType
afg_weight_get_type (void)
{
  static const GEnumValue values[] = {
    { AFG_WEIGHT_HOST, "AFG_WEIGHT_HOST", "host" },
    { AFG_WEIGHT_NPU, "AFG_WEIGHT_NPU", "npu" },
    { AFG_WEIGHT_COMPUTE, "AFG_WEIGHT_COMPUTE", "compute" },
    { AFG_WEIGHT_COMM, "AFG_WEIGHT_COMM", "comm" },
    { AFG_WEIGHT_EXPOSED, "AFG_WEIGHT_EXPOSED", "exposed" },
    { 0, NULL, NULL },
  };
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static (g_intern_static_string ("AfgWeight"), values));
  return type;
}

static AfgColumn
weight_column (AfgWeight weight)
{
  return afg_weight_get_total_column (weight);
}

/* A comparison's trees hold the weight it was made in in their host
 * columns (afg_diff_shape_new_weighted()): it is drawn by those. */
AfgColumn
afg_session_column_for (AfgSession *self, AfgTree *tree)
{
  AfgColumn chosen;

  g_return_val_if_fail (AFG_IS_SESSION (self), AFG_COLUMN_TOTAL_NS);
  chosen = weight_column (self->weight);
  if (tree == NULL || self->comparing || !afg_tree_has_column (tree, chosen))
    return AFG_COLUMN_TOTAL_NS;
  return chosen;
}

static void
update_column (AfgSession *self)
{
  AfgColumn column = afg_session_column_for (self, self->tree);

  if (column == self->column)
    return;
  self->column = column;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLUMN]);
}

static void
afg_session_finalize (GObject *object)
{
  AfgSession *self = AFG_SESSION (object);

  g_clear_object (&self->file);
  g_clear_object (&self->job_folder);
  g_clear_pointer (&self->transforms, afg_transform_list_unref);
  g_clear_pointer (&self->tree, afg_tree_unref);
  G_OBJECT_CLASS (afg_session_parent_class)->finalize (object);
}

static void
afg_session_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  AfgSession *self = AFG_SESSION (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_TREE:
      g_value_set_pointer (value, self->tree);
      break;
    case PROP_COMPARING:
      g_value_set_boolean (value, self->comparing);
      break;
    case PROP_WEIGHT:
      g_value_set_enum (value, self->weight);
      break;
    case PROP_DEVICE_WEIGHT:
      g_value_set_enum (value, self->device_weight);
      break;
    case PROP_COLUMN:
      g_value_set_uint (value, self->column);
      break;
    case PROP_MERGE_ADDRESSES:
      g_value_set_boolean (value, self->merge_addresses);
      break;
    case PROP_NPU_IDLE:
      g_value_set_boolean (value, self->npu_idle);
      break;
    case PROP_JOB_FOLDER:
      g_value_set_object (value, self->job_folder);
      break;
    case PROP_TRANSFORMS:
      g_value_set_pointer (value, self->transforms);
      break;
    case PROP_ICICLE:
      g_value_set_boolean (value, self->icicle);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_session_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  AfgSession *self = AFG_SESSION (object);

  switch (prop_id)
    {
    case PROP_FILE:
      afg_session_set_file (self, g_value_get_object (value));
      break;
    case PROP_TREE:
      afg_session_set_tree (self, g_value_get_pointer (value));
      break;
    case PROP_COMPARING:
      afg_session_set_comparing (self, g_value_get_boolean (value));
      break;
    case PROP_WEIGHT:
      afg_session_set_weight (self, g_value_get_enum (value));
      break;
    case PROP_MERGE_ADDRESSES:
      afg_session_set_merge_addresses (self, g_value_get_boolean (value));
      break;
    case PROP_NPU_IDLE:
      afg_session_set_npu_idle (self, g_value_get_boolean (value));
      break;
    case PROP_JOB_FOLDER:
      afg_session_set_job_folder (self, g_value_get_object (value));
      break;
    case PROP_TRANSFORMS:
      afg_session_set_transforms (self, g_value_get_pointer (value));
      break;
    case PROP_ICICLE:
      afg_session_set_icicle (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_session_class_init (AfgSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = afg_session_finalize;
  object_class->get_property = afg_session_get_property;
  object_class->set_property = afg_session_set_property;

  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, rw);
  /* An AfgTree, referenced by the session. */
  properties[PROP_TREE] = g_param_spec_pointer ("tree", NULL, NULL, rw);
  properties[PROP_COMPARING] = g_param_spec_boolean ("comparing", NULL, NULL, FALSE, rw);
  properties[PROP_WEIGHT] =
    g_param_spec_enum ("weight", NULL, NULL, AFG_TYPE_WEIGHT, AFG_WEIGHT_HOST, rw);
  properties[PROP_DEVICE_WEIGHT] =
    g_param_spec_enum ("device-weight", NULL, NULL, AFG_TYPE_WEIGHT, AFG_WEIGHT_COMPUTE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* An AfgColumn. */
  properties[PROP_COLUMN] =
    g_param_spec_uint ("column", NULL, NULL, 0, G_MAXUINT, AFG_COLUMN_TOTAL_NS,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MERGE_ADDRESSES] = g_param_spec_boolean ("merge-addresses", NULL, NULL, TRUE, rw);
  properties[PROP_NPU_IDLE] = g_param_spec_boolean ("npu-idle", NULL, NULL, FALSE, rw);
  properties[PROP_JOB_FOLDER] = g_param_spec_object ("job-folder", NULL, NULL, G_TYPE_FILE, rw);
  /* An AfgTransformList, referenced by the session. */
  properties[PROP_TRANSFORMS] = g_param_spec_pointer ("transforms", NULL, NULL, rw);
  properties[PROP_ICICLE] = g_param_spec_boolean ("icicle", NULL, NULL, FALSE, rw);
  /* The shown tree's AfgDocument and its const AfgScope: read-only, they
   * change with the tree. */
  properties[PROP_DOCUMENT] = g_param_spec_pointer ("document", NULL, NULL, ro);
  properties[PROP_SCOPE] = g_param_spec_pointer ("scope", NULL, NULL, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
afg_session_init (AfgSession *self)
{
  self->column = AFG_COLUMN_TOTAL_NS;
  self->device_weight = AFG_WEIGHT_COMPUTE;
  self->merge_addresses = TRUE;
}

AfgSession *
afg_session_new (void)
{
  return g_object_new (AFG_TYPE_SESSION, NULL);
}

GFile *
afg_session_get_file (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), NULL);
  return self->file;
}

void
afg_session_set_file (AfgSession *self, GFile *file)
{
  g_return_if_fail (AFG_IS_SESSION (self));
  if (g_set_object (&self->file, file))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
}

AfgTree *
afg_session_get_tree (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), NULL);
  return self->tree;
}

/* @b NULL (no tree) is the whole profile's scope, as { 0 } is. */
static gboolean
same_scope (const AfgScope *a, const AfgScope *b)
{
  AfgScope none = { 0 };

  return afg_scope_equal (a, b ? b : &none);
}

void
afg_session_set_tree (AfgSession *self, AfgTree *tree)
{
  AfgDocument *old_document;
  AfgScope old_scope;

  g_return_if_fail (AFG_IS_SESSION (self));
  if (self->tree == tree)
    return;
  old_document = afg_session_get_document (self);
  old_scope = self->tree ? *afg_tree_get_scope (self->tree) : (AfgScope) { 0 };
  g_clear_pointer (&self->tree, afg_tree_unref);
  self->tree = tree ? afg_tree_ref (tree) : NULL;
  /* The column first: a view that follows the tree reads it. */
  update_column (self);
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
  if (afg_session_get_document (self) != old_document)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
  if (!same_scope (&old_scope, afg_session_get_scope (self)))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCOPE]);
  g_object_thaw_notify (G_OBJECT (self));
}

AfgDocument *
afg_session_get_document (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), NULL);
  return self->tree ? afg_tree_get_document (self->tree) : NULL;
}

const AfgScope *
afg_session_get_scope (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), NULL);
  return self->tree ? afg_tree_get_scope (self->tree) : NULL;
}

gboolean
afg_session_get_comparing (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), FALSE);
  return self->comparing;
}

void
afg_session_set_comparing (AfgSession *self, gboolean comparing)
{
  g_return_if_fail (AFG_IS_SESSION (self));
  if (self->comparing == !!comparing)
    return;
  self->comparing = !!comparing;
  update_column (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPARING]);
}

AfgWeight
afg_session_get_weight (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), AFG_WEIGHT_HOST);
  return self->weight;
}

void
afg_session_set_weight (AfgSession *self, AfgWeight weight)
{
  g_return_if_fail (AFG_IS_SESSION (self));
  g_return_if_fail (weight < AFG_N_WEIGHTS);
  if (weight != AFG_WEIGHT_HOST && weight != self->device_weight)
    {
      self->device_weight = weight;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEVICE_WEIGHT]);
    }
  if (self->weight == weight)
    return;
  self->weight = weight;
  update_column (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WEIGHT]);
}

AfgWeight
afg_session_get_device_weight (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), AFG_WEIGHT_COMPUTE);
  return self->device_weight;
}

AfgWeight
afg_session_get_shown_weight (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), AFG_WEIGHT_HOST);
  return self->column == weight_column (self->weight) ? self->weight : AFG_WEIGHT_HOST;
}

AfgColumn
afg_session_get_column (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), AFG_COLUMN_TOTAL_NS);
  return self->column;
}

gboolean
afg_session_get_merge_addresses (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), TRUE);
  return self->merge_addresses;
}

void
afg_session_set_merge_addresses (AfgSession *self, gboolean merge)
{
  g_return_if_fail (AFG_IS_SESSION (self));
  if (self->merge_addresses == !!merge)
    return;
  self->merge_addresses = !!merge;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MERGE_ADDRESSES]);
}

AfgTreeFlags
afg_session_get_tree_flags (AfgSession *self)
{
  return afg_session_get_merge_addresses (self) ? AFG_TREE_MERGE_ADDRESSES : AFG_TREE_FLAGS_NONE;
}

gboolean
afg_session_get_npu_idle (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), FALSE);
  return self->npu_idle;
}

void
afg_session_set_npu_idle (AfgSession *self, gboolean npu_idle)
{
  g_return_if_fail (AFG_IS_SESSION (self));
  if (self->npu_idle == !!npu_idle)
    return;
  self->npu_idle = !!npu_idle;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NPU_IDLE]);
}

GFile *
afg_session_get_job_folder (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), NULL);
  return self->job_folder;
}

void
afg_session_set_job_folder (AfgSession *self, GFile *folder)
{
  g_return_if_fail (AFG_IS_SESSION (self));
  if (g_set_object (&self->job_folder, folder))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_JOB_FOLDER]);
}

AfgTransformList *
afg_session_get_transforms (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), NULL);
  return self->transforms;
}

void
afg_session_set_transforms (AfgSession *self, AfgTransformList *transforms)
{
  g_return_if_fail (AFG_IS_SESSION (self));
  if (self->transforms == transforms)
    return;
  g_clear_pointer (&self->transforms, afg_transform_list_unref);
  self->transforms = transforms != NULL ? afg_transform_list_ref (transforms) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRANSFORMS]);
}

gboolean
afg_session_get_icicle (AfgSession *self)
{
  g_return_val_if_fail (AFG_IS_SESSION (self), FALSE);
  return self->icicle;
}

void
afg_session_set_icicle (AfgSession *self, gboolean icicle)
{
  g_return_if_fail (AFG_IS_SESSION (self));
  if (self->icicle == !!icicle)
    return;
  self->icicle = !!icicle;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ICICLE]);
}
